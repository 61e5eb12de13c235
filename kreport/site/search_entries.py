"""The search index's entries for each page, kept from one build to the next.

The theme's search plugin reads every page's finished HTML into sections for
the index on every build: on a one-sentence edit, a tenth of the rebuild went
to pages that had not changed. A page's entries are a function of its HTML, its
address, title, metadata and table of contents, and of the plugin's settings
and version; keyed by all of them, a page whose HTML did not change takes its
entries from ``.cache/search-entries`` (mkdocs_hooks.on_config installs this).
"""

from __future__ import annotations

import hashlib
import json
from importlib.metadata import version
from pathlib import Path

from .cache import CacheStore, driver_digest

KIND = "search-entries"


def _outline(toc) -> list:
    """A table of contents as plain data (the entries take their section titles
    and anchors from it)."""
    return [[item.id, item.title, item.level, _outline(item.children)] for item in toc]


def entries_key(page, settings: dict) -> str:
    made_from = [page.url, page.title, page.meta, _outline(page.toc), page.content, settings,
                 version("mkdocs-material"), driver_digest("search_entries.py")]
    return hashlib.sha256(json.dumps(made_from, default=str).encode()).hexdigest()[:32]


def install(config) -> None:
    """Make the search plugin's index take each page's entries from the cache when
    they were made from the same inputs, and store them when they were not."""
    config_file = getattr(config, "config_file_path", None)
    indexes = [plugin.search_index for plugin in config.plugins.values()
               if getattr(plugin, "search_index", None) is not None]
    if config_file is None or not indexes:
        return
    store = CacheStore(Path(config_file).parent / ".cache")
    index = indexes[0]
    make_entries = index.add_entry_from_context

    def add_entry_from_context(page) -> None:
        name = page.file.src_path.replace("/", "_")
        key = entries_key(page, index.config)
        stored = store.get(KIND, name, key)
        if stored is not None:
            index.entries.extend(stored)
            return
        before = len(index.entries)
        make_entries(page)
        store.put(KIND, name, key, index.entries[before:])

    index.add_entry_from_context = add_entry_from_context
