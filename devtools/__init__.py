"""Tools for developers, not the product: load tests, benches and the leaderboards' seeding commands
(`make loadtest`, `loadtest-rooms`, `bench-render`, `seed-leaderboards`, `bench-leaderboards`), and the
load test's floor socket (off unless `BENCH_ROUTES`)."""
