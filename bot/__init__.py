"""The runtime: settings, the SQLite store, translations, shared embeds and views."""
