"""The live table: its socket (consumers, socket input and limits), the fragments pushed to each viewer
(rendering, presentation, publishing), who acts when nobody is at the keyboard (timers, thinking,
sweeper), and the replay of a finished match (docs/architecture.md)."""
