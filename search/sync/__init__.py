"""The write wing: PostgreSQL rows -> Elasticsearch (outbox, rebuild, checks). Never imports search.querying."""
