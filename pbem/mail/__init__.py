"""Mail: every message goes through the outbox table (issue 5 adds SMTP delivery)."""
