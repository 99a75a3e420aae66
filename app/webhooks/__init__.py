"""Webhooks: subscriptions (admin API), deliveries of verified verdicts, signed and retried."""
