"""The read wing: a reader's query -> Elasticsearch requests -> results. Never imports search.sync."""
