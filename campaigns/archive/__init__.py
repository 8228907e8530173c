"""A campaign moved as one file: the versioned JSON archive (docs/archive.md).

``registry`` holds what each app contributes (its models, how it finds a campaign's rows, how it rewrites
the ids its JSON fields hold); ``rows`` turns a row into a record and back; ``writing`` builds an archive,
``reading`` checks one whole and ``restoring`` writes it as a new campaign. The campaign app registers its
own tables in ``campaign_tables``; the feature apps register theirs from their ``AppConfig.ready()``, so this
package imports none of them.
"""
