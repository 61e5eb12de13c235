"""The site driver: builds docs/ from the pages and notebooks it is handed.

Nothing here is imported by a page. ``scripts/build_site.py`` (``make docs``)
collects the pages and notebooks from :mod:`kreport.pages`, the paths from the
repository, and calls :func:`kreport.site.build.build_site`; the tests call the
same functions. The modules:

* :mod:`.paths`      where things are (docs/, the cache, mkdocs.yml, the lock file);
* :mod:`.cache`      the one cache rule for pages and notebooks;
* :mod:`.markdown`   a page's template rendered from its facts, and its manifest;
* :mod:`.notebooks`  notebooks executed, their facts collected, their prose filled;
* :mod:`.compare`    the one tolerance rule: when a fresh file equals a committed one;
* :mod:`.checks`     what must hold of docs/ as a whole (no unknown files, the
                     navigation, no digit outside a fact's mark-up);
* :mod:`.stability`  every printed digit significant, measured on perturbed fixtures;
* :mod:`.build`      compute everything, check it, then write it.
"""
