"""Outgoing mail, below the services: what they need of mail without the email gateway.

- `messages`: `send_mail`, the one way the service sends mail (a row in the outbox table).
- `delivery`: sending outbox rows over SMTP, once each, and who wants mail of which topic.
- `tokens`, `seat_tokens`: reply tokens, the credential in a seat's reply address, and the
  one each seat has.
- `settings`: the mail settings (domain, SMTP, the gateway's switches).
- `models`: the tables of outgoing mail and reply tokens.
- `marker`, `bounce_address`: what our mails carry so that replies and bounces can be read.

Nothing here imports the services or the gateway (pbem/mail/), which both build on it.
"""
