"""HTTP routes of the gameplay app."""

from django.urls import path

from gameplay import views

app_name = "gameplay"

urlpatterns = [
    path("tables/<str:table_id>/", views.table, name="table"),
    path("tables/<str:table_id>/record.json", views.table_record, name="table_record"),
]
