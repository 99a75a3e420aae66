"""The engine version: part of every verdict. Bump it whenever a verdict can change."""

ENGINE_VERSION = "paohuzi-replay/0.2.0"
