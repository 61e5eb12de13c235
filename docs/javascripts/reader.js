// What the reader's browser does on every page of the site, with nothing
// fetched from outside it:
//
// * math arrives rendered (KaTeX runs when the site is built,
//   kreport.site.katex), so nothing here touches it;
// * provenance: every printed number (a .fact in prose, a [data-fact] inside
//   math) can be hovered, focused or tapped to show what it is (its key), its
//   value at full precision and the function that produced it, read from the
//   page's manifest (data/<page>.json), with a link to the number's entry in
//   the manifest's readable view (facts.html?page=<page>). The
//   build writes each number's role and focus; a number is prepared further
//   only when a reader first reaches it, never all of them at load;
// * the checks: reading mode is the default; a switch in the header ("Show the
//   checks", remembered across pages and visits) reveals the ticks, each page's
//   "How these numbers were made" and the numbers' provenance styling;
// * figures: a figure link opens the figure full size in GLightbox (loaded
//   from this site the first time a reader opens one; without script the link
//   opens the SVG itself); the notebook's figures follow the colour scheme.
//
// mkdocs-material swaps pages without a full reload (navigation.instant), so
// the per-page work runs on each document$ emission.
(function () {
  "use strict";

  // ---------------------------------------------------------------- where things are

  function siteRoot() {
    if (typeof __md_scope !== "undefined") return new URL(__md_scope);
    var config = document.getElementById("__config");
    var base = config ? JSON.parse(config.textContent).base : ".";
    return new URL(base.replace(/\/?$/, "/"), location.href);
  }
  // The one definition of the site's root; playground.js (loaded after this
  // file, on every page) asks for it here.
  window.krReader = { siteRoot: siteRoot };

  function pageSlug() {
    var root = siteRoot().pathname;
    var path = location.pathname;
    var rest = path.indexOf(root) === 0 ? path.slice(root.length) : path;
    rest = rest.replace(/index\.html$/, "").replace(/\/$/, "").replace(/\.html$/, "");
    return rest === "" ? "index" : rest;
  }

  function isDark() {
    return document.body.getAttribute("data-md-color-scheme") === "slate";
  }

  // ---------------------------------------------------------------- provenance

  var manifests = {};  // slug -> Promise of the manifest
  var popover = null;
  var current = null;  // the fact element the popover describes
  var pinned = false;
  var hideTimer = null;

  function manifest(slug) {
    if (!manifests[slug]) {
      var url = new URL("data/" + slug + ".json", siteRoot());
      manifests[slug] = fetch(url).then(function (response) {
        if (!response.ok) throw new Error(url + " answered " + response.status);
        return response.json();
      });
    }
    return manifests[slug];
  }

  function manifestUrl(slug, key) {
    // The manifest's readable view (facts.html, javascripts/facts.js), at the fact's entry.
    return new URL("facts.html", siteRoot()).href + "?page=" + encodeURIComponent(slug) +
      "#" + encodeURIComponent(key);
  }

  function keysFor(element) {
    var key = element.getAttribute("data-fact");
    // Inside math a key travels with ( ) for [ ] (kreport.report.render.tex_key).
    var bracketed = key.replace(/\(/g, "[").replace(/\)/g, "]");
    return bracketed === key ? [key] : [bracketed, key];
  }

  function lookUp(data, keys) {
    for (var i = 0; i < keys.length; i++) {
      var key = keys[i];
      for (var j = 0; j < data.facts.length; j++) {
        if (data.facts[j].key === key) return data.facts[j];
      }
      var claim = /^claims\[(\d+)\]\.(.+)$/.exec(key);
      if (claim && data.claims[+claim[1]] && claim[2] in data.claims[+claim[1]].values) {
        return { key: key, value: data.claims[+claim[1]].values[claim[2]],
                 source: "the build's check of a claim: " + data.claims[+claim[1]].sentence };
      }
      var build = /^build\.(.+)$/.exec(key);
      if (build && data.build && build[1] in data.build) {
        return { key: key, value: data.build[build[1]], source: "counted by the build" };
      }
    }
    return null;
  }

  function describeValue(value) {
    if (value && typeof value === "object" && "below" in value) {
      return "below " + value.below + " in size (a bound: the computed value is rounding noise)";
    }
    if (typeof value === "number") return String(value);
    if (typeof value === "string") return value;
    return JSON.stringify(value);
  }

  function ensurePopover() {
    if (popover && document.body.contains(popover)) return popover;
    popover = document.createElement("div");
    popover.id = "kr-fact-popover";
    popover.className = "kr-fact-popover";
    popover.setAttribute("role", "dialog");
    popover.setAttribute("aria-label", "Where this number comes from");
    popover.hidden = true;
    popover.addEventListener("mouseenter", function () { clearTimeout(hideTimer); });
    popover.addEventListener("mouseleave", function () { if (!pinned) scheduleHide(); });
    popover.addEventListener("focusout", function (event) {
      if (!popover.contains(event.relatedTarget) && event.relatedTarget !== current) hide();
    });
    document.body.appendChild(popover);
    return popover;
  }

  function field(label, value, code) {
    var term = document.createElement("dt");
    term.textContent = label;
    var detail = document.createElement("dd");
    var holder = code ? document.createElement("code") : detail;
    holder.textContent = value;
    if (code) detail.appendChild(holder);
    return [term, detail];
  }

  function fill(element) {
    var box = ensurePopover();
    var keys = keysFor(element);
    var slug = pageSlug();
    var title = element.getAttribute("data-kr-title") || "";
    var fallbackSource = title.indexOf(" \u2190 ") >= 0 ? title.split(" \u2190 ")[1] : "";
    box.textContent = "";
    var list = document.createElement("dl");
    field("Number", keys[0], true).forEach(function (n) { list.appendChild(n); });
    var valueNodes = field("Value", "reading the manifest\u2026", false);
    var sourceNodes = field("Computed by", fallbackSource || "\u2026", true);
    valueNodes.concat(sourceNodes).forEach(function (n) { list.appendChild(n); });
    box.appendChild(list);
    if (element.hasAttribute("data-kr-source")) {
      // A number a playground shows: it says itself what it is and where it came from
      // (docs/javascripts/playground.js); the page's manifest does not hold it.
      valueNodes[1].textContent = element.getAttribute("data-kr-value");
      sourceNodes[1].firstChild.textContent = element.getAttribute("data-kr-source");
      return;
    }
    var link = document.createElement("a");
    link.href = manifestUrl(slug, keys[0]);
    link.textContent = "Its entry among this page's facts";
    link.className = "kr-fact-popover__link";
    box.appendChild(link);
    manifest(slug).then(function (data) {
      if (current !== element) return;
      var entry = lookUp(data, keys);
      if (!entry) {
        valueNodes[1].textContent = "not in the manifest";
        return;
      }
      valueNodes[1].textContent = describeValue(entry.value);
      sourceNodes[1].firstChild.textContent = entry.source;
      link.href = manifestUrl(slug, entry.key);
    }).catch(function () {
      valueNodes[1].textContent = "the manifest could not be read";
    });
  }

  function place(element) {
    var box = ensurePopover();
    var rect = element.getBoundingClientRect();
    var width = Math.min(box.offsetWidth || 320, document.documentElement.clientWidth - 16);
    var left = Math.max(8, Math.min(rect.left + window.scrollX,
                                    window.scrollX + document.documentElement.clientWidth
                                    - width - 8));
    var below = rect.bottom + window.scrollY + 6;
    box.style.left = left + "px";
    box.style.top = below + "px";
    var room = window.innerHeight - rect.bottom;
    if (room < box.offsetHeight + 12 && rect.top > box.offsetHeight + 12) {
      box.style.top = (rect.top + window.scrollY - box.offsetHeight - 6) + "px";
    }
  }

  function show(element, pin) {
    clearTimeout(hideTimer);
    prepare(element);
    var box = ensurePopover();
    if (current && current !== element) current.removeAttribute("aria-describedby");
    if (current !== element || box.hidden) {
      current = element;
      fill(element);
    }
    pinned = pin || (pinned && current === element);
    box.hidden = false;
    element.setAttribute("aria-describedby", box.id);
    if (element.hasAttribute("aria-expanded")) element.setAttribute("aria-expanded", "true");
    place(element);
  }

  function hide() {
    clearTimeout(hideTimer);
    if (!popover) return;
    popover.hidden = true;
    pinned = false;
    if (current) {
      current.removeAttribute("aria-describedby");
      if (current.hasAttribute("aria-expanded")) current.setAttribute("aria-expanded", "false");
    }
  }

  function scheduleHide() {
    clearTimeout(hideTimer);
    hideTimer = setTimeout(hide, 250);
  }

  function factOf(node) {
    return node && node.closest ? node.closest("[data-fact]") : null;
  }

  // The popover replaces the browser's own tooltip (which touch and keyboard
  // never show); the text is kept for when the manifest is missing. Done for
  // one number when a reader first reaches it, so the page pays nothing at
  // load for the thousands nobody opens.
  function prepare(element) {
    if (element.hasAttribute("data-kr-ready")) return;
    element.setAttribute("data-kr-ready", "");
    if (element.hasAttribute("title")) {
      element.setAttribute("data-kr-title", element.getAttribute("title"));
      element.removeAttribute("title");
    }
  }

  document.addEventListener("mouseover", function (event) {
    var fact = factOf(event.target);
    if (fact && event.pointerType !== "touch") show(fact, false);
  });
  document.addEventListener("mouseout", function (event) {
    var fact = factOf(event.target);
    if (fact && !pinned && !(popover && popover.contains(event.relatedTarget))) scheduleHide();
  });
  // A number the reader just dismissed with Escape gets its focus back without
  // its popover opening again.
  var dismissed = null;
  document.addEventListener("focusin", function (event) {
    var fact = factOf(event.target);
    if (fact && fact === dismissed) { dismissed = null; return; }
    dismissed = null;
    if (fact) show(fact, false);
  });
  document.addEventListener("focusout", function (event) {
    var fact = factOf(event.target);
    if (fact && !(popover && popover.contains(event.relatedTarget)) && !pinned) hide();
  });
  document.addEventListener("click", function (event) {
    var fact = factOf(event.target);
    if (fact) {
      if (pinned && current === fact) hide(); else show(fact, true);
      return;
    }
    if (popover && !popover.hidden && !popover.contains(event.target)) hide();
  });
  document.addEventListener("keydown", function (event) {
    var fact = factOf(event.target);
    if (event.key === "Escape" && popover && !popover.hidden) {
      var back = current;
      var inside = popover.contains(document.activeElement);
      hide();
      if (back && inside) { dismissed = back; back.focus(); }
    } else if (event.key === "Tab" && popover && !popover.hidden
               && popover.contains(document.activeElement) && current) {
      // The popover sits at the end of the page; Tab goes on from its number,
      // in reading order, not to the page's end.
      event.preventDefault();
      var from = current;
      hide();
      dismissed = from;
      if (event.shiftKey) from.focus(); else focusAfter(from);
    } else if (fact && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      show(fact, true);
      var link = popover.querySelector("a");
      if (link) link.focus();
    }
  });
  window.addEventListener("resize", function () { if (current && popover && !popover.hidden) place(current); });

  var FOCUSABLE = "a[href], button, input, select, textarea, summary, [tabindex]";

  function focusAfter(element) {
    var all = Array.prototype.filter.call(document.querySelectorAll(FOCUSABLE), function (node) {
      return node.tabIndex >= 0 && !node.disabled && !(popover && popover.contains(node))
        && node.getClientRects().length > 0;
    });
    var index = all.indexOf(element);
    var next = index >= 0 ? all[index + 1] : null;
    (next || element).focus();
  }

  // ---------------------------------------------------------------- figures

  var lightbox = null;  // Promise of GLightbox, loaded on first use

  function loadLightbox() {
    if (!lightbox) {
      lightbox = new Promise(function (resolve, reject) {
        var root = siteRoot();
        var style = document.createElement("link");
        style.rel = "stylesheet";
        style.href = new URL("assets/glightbox/glightbox.min.css", root).href;
        document.head.appendChild(style);
        var script = document.createElement("script");
        script.src = new URL("assets/glightbox/glightbox.min.js", root).href;
        script.onload = function () { resolve(window.GLightbox); };
        script.onerror = reject;
        document.head.appendChild(script);
      });
    }
    return lightbox;
  }

  function openFull(href, alt, caption, opener) {
    loadLightbox().then(function (GLightbox) {
      var box = GLightbox({
        elements: [{ href: href, type: "image", alt: alt, description: caption || "" }],
        touchNavigation: true, zoomable: true, draggable: true, loop: false,
        openEffect: "fade", closeEffect: "fade",
      });
      box.on("close", function () {
        setTimeout(function () { box.destroy(); if (opener) opener.focus(); }, 0);
      });
      box.open();
    }).catch(function () { location.href = href; });
  }

  document.addEventListener("click", function (event) {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey
        || event.shiftKey || event.altKey) return;
    var link = event.target.closest && event.target.closest("a.kr-figure__open");
    var notebookImage = event.target.closest && event.target.closest(".jp-OutputArea-output img");
    if (!link && !notebookImage) return;
    event.preventDefault();
    var image = link ? link.querySelector("img") : notebookImage;
    var figure = (link || notebookImage).closest("figure");
    var caption = figure && figure.querySelector("figcaption");
    // The variant the page shows (the narrow one on a phone), not always the wide.
    var shown = image && image.currentSrc;
    openFull(link ? shown || link.href : notebookImage.currentSrc || notebookImage.src,
             image ? image.alt : "", caption ? caption.innerHTML : "", link || notebookImage);
  });
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Enter") return;
    var output = event.target.closest && event.target.closest(".jp-OutputArea-output");
    var image = output && output.querySelector("img");
    if (image) { event.preventDefault(); image.click(); }
  });

  // The notebook's SVG outputs are files beside its page that carry the same
  // dark style sheet as the page figures (kreport.site.mkdocs_hooks),
  // switched on by the #only-dark fragment.
  // A figure with a phone variant is a <picture>: its <source> follows too.
  function followScheme(root) {
    var dark = isDark();
    function follow(element, attribute) {
      var url = element.getAttribute(attribute);
      var plain = url.replace(/#only-dark$/, "");
      var wanted = dark ? plain + "#only-dark" : plain;
      if (url !== wanted) element.setAttribute(attribute, wanted);
    }
    root.querySelectorAll(".jp-OutputArea-output source[srcset*='.svg']")
      .forEach(function (source) { follow(source, "srcset"); });
    root.querySelectorAll(".jp-OutputArea-output img[src*='.svg']")
      .forEach(function (image) { follow(image, "src"); });
  }

  new MutationObserver(function () { followScheme(document); })
    .observe(document.body, { attributes: true, attributeFilter: ["data-md-color-scheme"] });

  // ---------------------------------------------------------------- sideways scrollers

  // An equation, table, code block or notebook output wider than the column
  // scrolls inside itself. One that does is made a named, focusable group (so a
  // keyboard can scroll it with the arrow keys) and fades at the edge that has
  // more, which tells the eye it scrolls; the fades follow the scroll position.
  var SCROLLERS = [
    [".katex-display", "Equation"],
    [".md-typeset__scrollwrap", "Table"],
    [".jp-OutputArea-output", "Output"],
    ["pre > code", "Code"],  // the theme's code blocks scroll in their <code>
    ["pre", "Code"],         // the notebook's in their <pre>
  ];

  function fadeEdges(element) {
    var more = element.scrollWidth - element.clientWidth;
    element.classList.toggle("kr-more-left", element.scrollLeft > 1);
    element.classList.toggle("kr-more-right", element.scrollLeft < more - 1);
  }

  // Scrollers are measured a slice at a time, each slice in a task of its own: a
  // block the style sheet leaves unrendered off screen is laid out when its width
  // is read, and all of them in one task kept a phone busy for a fifth of a second.
  var SCROLLER_SLICE = 24;
  var marking = 0;

  function scrollerCandidates(root) {
    var candidates = [];
    SCROLLERS.forEach(function (entry) {
      var selector = "article " + entry[0];
      if (root.matches && root.matches(selector)) {
        candidates.push({ element: root, label: entry[1] });
      }
      root.querySelectorAll(selector).forEach(function (element) {
        candidates.push({ element: element, label: entry[1] });
      });
    });
    return candidates;
  }

  function markScrollers(root) {
    var candidates = scrollerCandidates(root);
    var run = ++marking;
    (function slice(start) {
      if (run !== marking) return;  // a newer call has started over
      markSlice(candidates.slice(start, start + SCROLLER_SLICE));
      if (start + SCROLLER_SLICE < candidates.length) {
        setTimeout(function () { slice(start + SCROLLER_SLICE); }, 0);
      }
    })(0);
  }

  // A scroller whose content is not laid out (off screen and skipped, or in a closed
  // block) has no width to read: it keeps its marks until it can be measured.
  function measurable(candidate) {
    var probe = candidate.element.firstElementChild || candidate.element;
    return !probe.checkVisibility || probe.checkVisibility({ contentVisibilityAuto: true });
  }

  function markSlice(candidates) {
    // Every width is read before anything is written: a write between two
    // reads makes the browser lay the page out again.
    var found = candidates.filter(measurable).map(function (candidate) {
      var element = candidate.element;
      var more = element.scrollWidth - element.clientWidth;
      return { element: element, label: candidate.label, scrolls: more > 1, more: more,
               left: element.scrollLeft };
    });
    found.forEach(function (item) {
      var element = item.element;
      var marked = element.classList.contains("kr-scrolls");
      if (item.scrolls && !marked) {
        element.classList.add("kr-scrolls");
        if (!element.hasAttribute("tabindex")) {
          element.setAttribute("tabindex", "0");
          element.dataset.krTabindex = "added";
        }
        if (!element.hasAttribute("role")) element.setAttribute("role", "group");
        if (!element.hasAttribute("aria-label")) {
          element.setAttribute("aria-label", item.label + ", scrolls sideways");
        }
        element.addEventListener("scroll", function () { fadeEdges(element); },
                                 { passive: true });
      } else if (!item.scrolls && marked) {
        element.classList.remove("kr-scrolls", "kr-more-left", "kr-more-right");
        if (element.dataset.krTabindex === "added") {
          element.removeAttribute("tabindex");
          delete element.dataset.krTabindex;
        }
      }
      if (item.scrolls) {
        element.classList.toggle("kr-more-left", item.left > 1);
        element.classList.toggle("kr-more-right", item.left < item.more - 1);
      }
    });
  }

  // A block the style sheet skips while it is off screen has no width of its own
  // content to read until it comes near; it is measured then.
  document.addEventListener("contentvisibilityautostatechange", function (event) {
    if (!event.skipped) markSlice(scrollerCandidates(event.target));
  }, true);
  // Nor has one inside a collapsed block (an exercise's answer) until it is opened.
  document.addEventListener("toggle", function (event) {
    if (event.target.open) markSlice(scrollerCandidates(event.target));
  }, true);

  // Widths change when the window does and when KaTeX's fonts arrive (the
  // math is laid out before them in a fallback face).
  var resizing = null;
  window.addEventListener("resize", function () {
    clearTimeout(resizing);
    resizing = setTimeout(function () { markScrollers(document); }, 150);
  });
  if (document.fonts && document.fonts.addEventListener) {
    document.fonts.addEventListener("loadingdone", function () { markScrollers(document); });
  }
  // Figures below the fold load lazily, and one that arrives may make its box
  // scroll.
  document.addEventListener("load", function (event) {
    if (event.target.tagName !== "IMG") return;
    clearTimeout(resizing);
    resizing = setTimeout(function () { markScrollers(document); }, 150);
  }, true);

  // ---------------------------------------------------------------- the checks

  // The choice is a class on <html>, applied in <head> on the next page before
  // anything is drawn (kreport/site/theme/main.html reads the same key).
  var CHECKS_KEY = "kr-checks";
  var CHECKS_CLASS = "kr-checks-shown";
  var SEAL_OFF = "m23 12-2.4-2.8.3-3.7-3.6-.8-1.9-3.2L12 3 8.6 1.5 6.7 4.7l-3.6.8.3 3.7L1 12l2.4 2.8-.3 3.7 3.6.8 1.9 3.2L12 21l3.4 1.5 1.9-3.2 3.6-.8-.3-3.7zm-4.3 4.9-2.7.6-1.4 2.4-2.6-1.1-2.6 1.1L8 17.5l-2.7-.6.2-2.8L3.7 12l1.8-2.1-.2-2.8L8 6.5l1.4-2.4L12 5.2l2.6-1.1L16 6.5l2.7.6-.2 2.8 1.8 2.1-1.8 2.1zm-2.1-9.3L18 9l-8 8-4-4 1.4-1.4 2.6 2.6z";
  var SEAL_ON = "m23 12-2.44-2.78.34-3.68-3.61-.82-1.89-3.18L12 3 8.6 1.54 6.71 4.72l-3.61.81.34 3.68L1 12l2.44 2.78-.34 3.69 3.61.82 1.89 3.18L12 21l3.4 1.46 1.89-3.18 3.61-.82-.34-3.68zm-13 5-4-4 1.41-1.41L10 14.17l6.59-6.59L18 9z";

  function checksShown() {
    return document.documentElement.classList.contains(CHECKS_CLASS);
  }

  function showChecks(shown, remember) {
    document.documentElement.classList.toggle(CHECKS_CLASS, shown);
    var button = document.querySelector(".kr-checks-switch");
    if (button) button.setAttribute("aria-pressed", shown ? "true" : "false");
    if (!remember) return;
    try {
      if (shown) localStorage.setItem(CHECKS_KEY, "shown");
      else localStorage.removeItem(CHECKS_KEY);
    } catch (error) { /* private mode: the choice lasts for this page */ }
  }

  function seal(path, which) {
    return '<svg class="kr-checks-switch__' + which + '" viewBox="0 0 24 24" aria-hidden="true">'
      + '<path d="' + path + '"/></svg>';
  }

  // The header is kept across instant navigation, so the switch is made once.
  function placeChecksSwitch() {
    if (document.querySelector(".kr-checks-switch")) return;
    var header = document.querySelector(".md-header__inner");
    if (!header) return;
    var button = document.createElement("button");
    button.type = "button";
    button.className = "md-header__button kr-checks-switch";
    button.setAttribute("aria-label", "Show the checks");
    button.title = "Show the checks: the ticks after checked sentences, how each page's "
      + "numbers were made, and which numbers came from kreport";
    button.setAttribute("aria-pressed", checksShown() ? "true" : "false");
    button.innerHTML = seal(SEAL_OFF, "off") + seal(SEAL_ON, "on")
      + '<span class="kr-checks-switch__label" aria-hidden="true">Checks</span>';
    button.addEventListener("click", function () { showChecks(!checksShown(), true); });
    var before = header.querySelector("[data-md-component=palette]")
      || header.querySelector("label[for=__search]");
    header.insertBefore(button, before);
  }

  // A link to a claim (a tick's target, or one made while the checks were
  // shown) opens the audit block it lives in, for this page only.
  function revealLinkedCheck() {
    var id = decodeURIComponent(location.hash.slice(1));
    var target = id && document.getElementById(id);
    var block = target && target.closest("details.kr-checks");
    if (!block) return;
    if (!checksShown()) showChecks(true, false);
    block.open = true;
    target.scrollIntoView();
  }
  window.addEventListener("hashchange", revealLinkedCheck);

  // A link into a long page lands before the blocks around its target are laid
  // out (extra.css skips blocks off screen, and a busy phone lays them out
  // late). The browser's scroll anchoring usually keeps the target in place as
  // they grow or shrink; when it does not, the target is put back at the top,
  // while the page is still settling and until the reader scrolls.
  var SETTLING_MS = 2000;
  function holdLinkedTarget() {
    var id = decodeURIComponent(location.hash.slice(1));
    var target = id && document.getElementById(id);
    var content = document.querySelector(".md-content");
    if (!target || !content || typeof ResizeObserver === "undefined") return;
    var watching = true;
    var observer = new ResizeObserver(function () {
      if (!watching) return;
      var margin = parseFloat(getComputedStyle(target).scrollMarginTop) || 0;
      var room = document.documentElement.scrollHeight - innerHeight - scrollY;
      var off = target.getBoundingClientRect().top - margin;
      if (Math.abs(off) > 4 && (off < 0 || room > 1)) target.scrollIntoView();
    });
    function stop() {
      watching = false;
      observer.disconnect();
      ["wheel", "touchstart", "keydown", "pointerdown"].forEach(function (kind) {
        removeEventListener(kind, stop, true);
      });
    }
    ["wheel", "touchstart", "keydown", "pointerdown"].forEach(function (kind) {
      addEventListener(kind, stop, {capture: true, passive: true});
    });
    observer.observe(content);
    setTimeout(stop, SETTLING_MS);
  }
  window.addEventListener("hashchange", holdLinkedTarget);

  // ---------------------------------------------------------------- each page

  // The theme's search is a dialog without a name; a screen reader announces
  // this one.
  function nameSearch() {
    var dialog = document.querySelector(".md-search[role=dialog]");
    if (dialog && !dialog.hasAttribute("aria-label")) {
      dialog.setAttribute("aria-label", "Search this site");
    }
  }

  function onPage() {
    placeChecksSwitch();
    nameSearch();
    hide();
    followScheme(document);
    markScrollers(document);
    revealLinkedCheck();
    holdLinkedTarget();
  }

  if (typeof document$ !== "undefined") {
    document$.subscribe(onPage);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", onPage);
  } else {
    onPage();
  }
})();
