"""HTTP routes of the gameplay app."""

from django.urls import path

from gameplay import (
    converters,  # noqa: F401  (registers <table_id:...>)
    views,
)

app_name = "gameplay"

urlpatterns = [
    path("tables/<table_id:table_id>/", views.table, name="table"),
    path("tables/<table_id:table_id>/record.json", views.table_record, name="table_record"),
]
