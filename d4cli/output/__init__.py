"""Everything a person or a script reads: the steps of a roll as data, the JSON serializers, the human renderers (the only Rich importer) and the rules reference text."""
