"""The real ASGI application, plus static files (uvicorn does not serve them; `runserver` and the
reverse proxy do). Only for the browser tests' server process."""

from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

from config.asgi import application as mediana

application = ASGIStaticFilesHandler(mediana)
