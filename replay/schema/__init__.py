"""Published schemas (package data): ``paohuzi-log-1.schema.json`` (see ``replay.logschema``)."""
