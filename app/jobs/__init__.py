"""The job queue on PostgreSQL (procrastinate): verification, re-audit chunks, webhook
deliveries, and the ``paohuzi-audit worker`` that runs them."""
