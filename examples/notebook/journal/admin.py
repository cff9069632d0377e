from django.contrib import admin

from journal.models import BlogItem, Category, Reply

admin.site.register(Category)
admin.site.register(BlogItem)
admin.site.register(Reply)
