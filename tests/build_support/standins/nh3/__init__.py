def clean(html, **kwargs):
    return html
