// The readable view of one page's manifest (facts.html?page=<slug>#<fact key>):
// each fact with its value, the function that computed it and how it is held,
// then the page's claims. The provenance popover (reader.js) links here, at the
// number's own entry, which is marked and scrolled to. Everything shown is read
// from data/<slug>.json, the manifest the build writes, so the two cannot differ.
(function () {
  "use strict";

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function code(text) { return element("code", "", text); }

  function describeValue(value) {
    if (value && typeof value === "object" && "below" in value) {
      return "below " + value.below + " in size (a bound: the computed value is rounding noise)";
    }
    return typeof value === "string" ? value : JSON.stringify(value);
  }

  // How a fact is held, where it differs from the page's default tolerance.
  function howHeld(entry) {
    if (entry.exact) return "exact on every machine, because " + entry.exact;
    if (entry.machine_specific) {
      return "measured on the machine that built the site, so not compared between machines";
    }
    return entry.rtol ? "locked to a relative tolerance of " + entry.rtol : "";
  }

  function fact(entry) {
    var box = element("div", "fact");
    box.id = entry.key;
    var key = element("p");
    key.appendChild(code(entry.key));
    box.append(key, element("p", "fact__value", describeValue(entry.value)));
    var how = howHeld(entry);
    if (how) box.appendChild(element("p", "fact__how", how));
    return box;
  }

  // The facts in the order the page's module computes them, under the function
  // that computed each run of them.
  function factsBySource(holder, facts) {
    var source = null;
    facts.forEach(function (entry) {
      if (entry.source !== source) {
        source = entry.source;
        var heading = element("h3", "", "Computed by ");
        heading.appendChild(code(source));
        holder.appendChild(heading);
      }
      holder.appendChild(fact(entry));
    });
  }

  function claim(entry) {
    var values = Object.keys(entry.values).map(function (name) {
      return name + " = " + describeValue(entry.values[name]);
    });
    return element("li", "", entry.sentence + (values.length ? " (" + values.join(", ") + ")" : ""));
  }

  function show(data, slug) {
    var title = document.getElementById("title");
    title.textContent = "The facts behind ";
    var back = element("a", "", data.title);
    back.href = slug === "index" ? "./" : slug + "/";
    title.appendChild(back);
    document.title = "The facts behind " + data.title;
    var intro = document.getElementById("intro");
    intro.textContent = "Every number the page prints is one of these " + data.facts.length +
      " facts, computed by the module ";
    intro.appendChild(code(data.module));
    intro.appendChild(document.createTextNode(" when "));
    intro.appendChild(code(data.rebuild));
    intro.appendChild(document.createTextNode(" runs, and locked to a relative tolerance of " +
      data.default_rtol + " unless its entry says otherwise. The same record, for programs: "));
    var raw = element("a", "", "data/" + slug + ".json");
    raw.href = "data/" + slug + ".json";
    intro.appendChild(raw);
    intro.appendChild(document.createTextNode("."));
    var holder = document.getElementById("facts");
    holder.appendChild(element("h2", "", "Facts"));
    factsBySource(holder, data.facts);
    holder.appendChild(element("h2", "", "Claims"));
    holder.appendChild(element("p", "", "Each is checked when the page is built; the build " +
      "fails if the data stop supporting it."));
    var list = element("ul");
    data.claims.forEach(function (entry) { list.appendChild(claim(entry)); });
    holder.appendChild(list);
    var asked = decodeURIComponent(location.hash.slice(1));
    var target = asked && document.getElementById(asked);
    if (target) {
      target.classList.add("fact--asked");
      target.tabIndex = -1;
      target.scrollIntoView({block: "start"});
      target.focus({preventScroll: true});
    }
  }

  var slug = new URLSearchParams(location.search).get("page") || "";
  var intro = document.getElementById("intro");
  if (!/^[a-z0-9-]+$/.test(slug)) {
    intro.textContent = "No page was named: open this sheet from a number's provenance.";
    return;
  }
  fetch("data/" + slug + ".json").then(function (response) {
    if (!response.ok) throw new Error(response.status);
    return response.json();
  }).then(function (data) { show(data, slug); }).catch(function () {
    intro.textContent = "The manifest of the page \u201c" + slug + "\u201d could not be read.";
  });
})();
