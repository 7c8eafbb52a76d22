"""The house rules: the presets, the editor, a house's own preset behind its links."""

from django.urls import path

from cetele.house_rules import views

app_name = "house_rules"

urlpatterns = [
    path("yeni/kurallar/", views.match_adjust, name="match_adjust"),
    path("kurallar/", views.rules_list, name="rules_list"),
    # Before the slug: "yeni" and "onizle" would otherwise read as a preset's name.
    path("kurallar/yeni/", views.preset_new, name="preset_new"),
    path("kurallar/onizle/", views.rules_preview, name="rules_preview"),
    path("kurallar/<slug:slug>/", views.rules_detail, name="rules_detail"),
    path("ev/<token:token>/", views.house_detail, name="house_detail"),
    path("ev/<token:token>/duzenle/", views.house_edit, name="house_edit"),
    path("ev/<token:token>/duzenle/yenile/", views.house_rotate, name="house_rotate"),
]
