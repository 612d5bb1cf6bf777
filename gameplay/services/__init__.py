"""Service functions of the gameplay app: every write to a table goes through here."""
