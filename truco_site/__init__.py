"""Project package: settings, URLs, ASGI routing and the site-wide pages (home, health, placeholders)."""
