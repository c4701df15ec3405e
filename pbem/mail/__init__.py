"""The email gateway, a channel like the web and the API: inbound mail read (inbound,
extract, commands), stored, authenticated, carried out through the services and answered
(gateway, store, senders, execute, replies, render), from SMTP, a webhook or IMAP.  Outgoing
mail itself is pbem/outbox/, below the services."""
