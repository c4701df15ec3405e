"""pbem: a play-by-email and asynchronous turn service for board games."""
