"""The deployment from the repository: the Procfile's processes behind nginx
(docs/deployment.md)."""
