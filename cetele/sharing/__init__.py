"""Links and sharing: links are the keys (edit, view), the share page, rotating a link, the
read-only pages."""
