// Playgrounds: controls a reader moves over a grid of settings that the site
// computed when it was built (kreport, the page's playground module). Nothing
// here computes a number the page shows: each setting's drawn values and the
// words and numbers beside them (already formatted by the site's formatter)
// are read from the playground's data file, data/<page>-<name>.json; the
// charts are Vega specifications in that file (written in Vega-Lite, compiled
// to Vega when the site was built), drawn by the Vega copy served from this
// site (assets/vega/). Both are fetched only when the reader starts the
// playground, by its button or by a link to one of its settings.
//
// The current setting is readable as text (a live caption) and is kept in the
// URL's fragment, #<playground id>:<control>=<value>,…, so that a setting can
// be cited and restored; every control is a native, labelled form control.
(function () {
  "use strict";

  var VEGA_SCRIPT = "assets/vega/vega.min.js";
  // A slider's positions: enough that neighbouring values never share one.
  var SLIDER_SPAN = 1000;
  var LIGHT = { ink: "#1f2329", soft: "#5d6470", grid: "#e4e6eb" };
  var DARK = { ink: "#d5d8df", soft: "#a9afbb", grid: "#3a3f4b" };

  // reader.js, loaded before this file on every page, knows where the site's root is.
  function siteRoot() {
    return window.krReader.siteRoot();
  }

  function isDark() {
    return document.body.getAttribute("data-md-color-scheme") === "slate";
  }

  var vegaLoading = null;
  function loadVega() {
    if (window.vega) return Promise.resolve(window.vega);
    if (!vegaLoading) {
      vegaLoading = new Promise(function (resolve, reject) {
        var script = document.createElement("script");
        script.src = new URL(VEGA_SCRIPT, siteRoot()).href;
        script.onload = function () { resolve(window.vega); };
        script.onerror = function () { reject(new Error("could not load " + script.src)); };
        document.head.appendChild(script);
      });
    }
    return vegaLoading;
  }

  // A playground's data file, fetched once however many boxes on the page draw from it.
  var dataLoading = {};
  function loadData(source) {
    var url = new URL(source, siteRoot()).href;
    if (!dataLoading[url]) {
      dataLoading[url] = fetch(url).then(function (response) {
        if (!response.ok) throw new Error(url + " answered " + response.status);
        return response.json();
      });
      dataLoading[url].catch(function () { delete dataLoading[url]; });
    }
    return dataLoading[url];
  }

  function vegaConfig() {
    var c = isDark() ? DARK : LIGHT;
    var axis = { labelColor: c.soft, titleColor: c.ink, domainColor: c.soft,
                 tickColor: c.soft, gridColor: c.grid, labelFontSize: 12, titleFontSize: 12,
                 titleFontWeight: "normal" };
    return { background: null, axis: axis, axisX: axis, axisY: axis,
             legend: { labelColor: c.ink, labelFontSize: 12, titleColor: c.ink },
             title: { color: c.ink }, style: { "guide-label": { fill: c.soft },
                                               "guide-title": { fill: c.ink } } };
  }

  // Vega warns that a data set with no rows has no extent. A playground's layer
  // is empty on purpose where a setting has nothing to draw there (the
  // half-centred fit switched off, or not determined); every other warning
  // reaches the console.
  function quietAboutEmptyLayers(vega) {
    var base = vega.logger(vega.Warn);
    var warn = base.warn;
    base.warn = function () {
      if (/^Infinite extent for field/.test(String(arguments[0]))) return base;
      return warn.apply(base, arguments);
    };
    return base;
  }

  function element(tag, attributes, text) {
    var node = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (name) {
      node.setAttribute(name, attributes[name]);
    });
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function fill(template, values) {
    var missing = false;
    var text = template.replace(/\{([a-z_0-9]+)\}/g, function (_, name) {
      if (!(name in values)) { missing = true; return ""; }
      return values[name];
    });
    return missing ? null : text;
  }

  // ---------------------------------------------------------------- one playground

  function Playground(box) {
    this.box = box;
    this.id = box.id;
    this.source = box.getAttribute("data-kr-playground");
    this.started = null;
    this.views = {};
    this.state = {};
    this.overlays = {};
    this.remembered = {};
    // The last value of each range under each setting of the other choices, so
    // that switching a choice away and back restores the range exactly.
    this.rangeMemory = {};
  }

  Playground.prototype.start = function () {
    var self = this;
    if (!this.started) {
      var button = this.box.querySelector("[data-kr-start]");
      if (button) { button.disabled = true; button.textContent = "Loading the playground\u2026"; }
      this.started = Promise.all([loadData(this.source), loadVega()]).then(function (loaded) {
        self.data = loaded[0];
        self.vega = loaded[1];
        self.build();
        return self;
      }).catch(function (error) {
        if (button) { button.disabled = false; button.textContent = "Start the playground"; }
        var message = self.box.querySelector(".kr-pg__error") ||
          self.box.appendChild(element("p", { "class": "kr-pg__error", role: "alert" }));
        message.textContent = "The playground could not be loaded (" + error.message + ").";
        self.started = null;
        throw error;
      });
    }
    return this.started;
  };

  // ---- the grid: keys, options, availability

  Playground.prototype.index = function () {
    var data = this.data;
    this.keyed = data.controls.filter(function (c) { return c.kind !== "overlay"; });
    this.byName = {};
    data.controls.forEach(function (c) { this.byName[c.name] = c; }, this);
    this.keys = Object.keys(data.settings).map(function (key) {
      var parts = key.split("/");
      var setting = {};
      this.keyed.forEach(function (c, i) { setting[c.name] = parts[i]; });
      return setting;
    }, this);
  };

  Playground.prototype.keyOf = function (state) {
    return this.keyed.map(function (c) { return state[c.name]; }).join("/");
  };

  Playground.prototype.optionOrder = function (control) {
    var order = {};
    control.options.forEach(function (option, i) { order[option.code] = i; });
    return order;
  };

  // The codes a control can take with every other control (but ranges) as now.
  Playground.prototype.available = function (name, state) {
    var self = this;
    var control = this.byName[name];
    var memo = name + "|" + this.keyed.map(function (c) {
      return c.name === name || c.kind === "range" ? "" : state[c.name];
    }).join("/");
    this.memo = this.memo || {};
    if (this.memo[memo]) return this.memo[memo];
    var codes = {};
    this.keys.forEach(function (setting) {
      var fits = self.keyed.every(function (c) {
        return c.name === name || c.kind === "range" || setting[c.name] === state[c.name];
      });
      if (fits) codes[setting[name]] = true;
    });
    var order = this.optionOrder(control);
    this.memo[memo] = Object.keys(codes).sort(function (a, b) {
      return (a === "-" ? -1 : order[a]) - (b === "-" ? -1 : order[b]);
    });
    return this.memo[memo];
  };

  // The setting nearest to `wanted`, keeping `fixed` as asked: a range keeps its
  // value where it can, else its place along the slider.
  Playground.prototype.nearest = function (wanted, fixed) {
    var self = this;
    var best = null;
    var bestScore = Infinity;
    this.keys.forEach(function (setting) {
      if (setting[fixed] !== wanted[fixed]) return;
      var score = 0;
      self.keyed.forEach(function (c) {
        if (c.name === fixed) return;
        var want = wanted[c.name] === "-" ? self.remembered[c.name] || "-" : wanted[c.name];
        var got = setting[c.name];
        if (got === want) return;
        if (got === "-" || want === "-") { score += 1; return; }
        if (c.kind === "range") {
          var from = self.available(c.name, self.state).filter(function (x) { return x !== "-"; });
          var to = self.available(c.name, setting).filter(function (x) { return x !== "-"; });
          var a = from.indexOf(want) / Math.max(1, from.length - 1);
          var b = to.indexOf(got) / Math.max(1, to.length - 1);
          score += 1 + Math.abs((a < 0 ? 0 : a) - b);
        } else {
          score += 100;
        }
      });
      if (score < bestScore) { bestScore = score; best = setting; }
    });
    return best;
  };

  // What a range's value is remembered under: the codes of every other control but ranges.
  Playground.prototype.context = function (state, range) {
    return range + "|" + this.keyed.map(function (c) {
      return c.kind === "range" ? "" : state[c.name];
    }).join("/");
  };

  Playground.prototype.change = function (name, code) {
    var control = this.byName[name];
    if (control.kind === "overlay") {
      this.overlays[name] = code === "on";
    } else {
      var wanted = Object.assign({}, this.state);
      wanted[name] = code;
      if (control.kind !== "range") {
        this.keyed.forEach(function (c) {
          var kept = this.rangeMemory[this.context(wanted, c.name)];
          if (c.kind === "range" && kept !== undefined) wanted[c.name] = kept;
        }, this);
      }
      var next = this.nearest(wanted, name);
      if (!next) return;
      this.keyed.forEach(function (c) {
        if (this.state[c.name] && this.state[c.name] !== "-" && next[c.name] === "-") {
          this.remembered[c.name] = this.state[c.name];
        }
      }, this);
      this.state = Object.assign({}, next);
    }
    this.show();
  };

  Playground.prototype.apply = function (codes) {
    var state = {};
    var keyed = this.keyed;
    keyed.forEach(function (c) { state[c.name] = codes[c.name] || "-"; });
    if (!this.data.settings[this.keyOf(state)]) {
      // An unknown setting (an old link): the default, then each control in turn.
      state = Object.assign({}, this.data["default"]);
      keyed.forEach(function (c) {
        if (codes[c.name] && codes[c.name] !== state[c.name]) {
          var wanted = Object.assign({}, state);
          wanted[c.name] = codes[c.name];
          var next = this.nearest(wanted, c.name);
          if (next) state = next;
        }
      }, this);
    }
    this.state = state;
    this.data.controls.forEach(function (c) {
      if (c.kind === "overlay") this.overlays[c.name] = codes[c.name] === "on";
    }, this);
    this.show();
  };

  // ---- building the page

  Playground.prototype.build = function () {
    var self = this;
    this.index();
    var start = this.box.querySelector(".kr-playground__start");
    if (start) start.hidden = true;
    var root = element("div", { "class": "kr-pg" });
    var form = element("form", { "class": "kr-pg__controls", "aria-label": "Settings of the "
                                 + this.data.title.toLowerCase() });
    form.addEventListener("submit", function (event) { event.preventDefault(); });
    this.inputs = {};
    this.data.controls.forEach(function (control) {
      form.appendChild(self.control(control));
    });
    var reset = element("button", { type: "button", "class": "md-button kr-pg__reset" },
                        "Reset");
    reset.addEventListener("click", function () {
      self.remembered = {};
      self.apply(self.data["default"]);
    });
    form.appendChild(reset);
    root.appendChild(form);
    this.caption = element("p", { "class": "kr-pg__setting", "aria-live": "polite" });
    root.appendChild(this.caption);
    var charts = element("div", { "class": "kr-pg__charts" });
    this.chartBoxes = {};
    Object.keys(this.data.charts).forEach(function (name) {
      var holder = element("div", { "class": "kr-pg__chart", "data-chart": name });
      var spec = self.data.charts[name];
      if (spec.description) {
        holder.setAttribute("role", "img");
        holder.setAttribute("aria-label", spec.description);
      }
      charts.appendChild(holder);
      self.chartBoxes[name] = holder;
    });
    root.appendChild(charts);
    this.stats = element("dl", { "class": "kr-pg__stats" });
    root.appendChild(this.stats);
    this.notes = element("div", { "class": "kr-pg__notes" });
    root.appendChild(this.notes);
    this.box.appendChild(root);
    this.makeViews();
    this.apply(this.fromFragment() || this.data["default"]);
  };

  Playground.prototype.control = function (control) {
    var self = this;
    var id = this.id + "-" + control.name;
    var wrapper;
    if (control.kind === "choice") {
      wrapper = element("fieldset", { "class": "kr-pg__choice" });
      wrapper.appendChild(element("legend", {}, control.label));
      var group = element("div", { "class": "kr-pg__options" });
      control.options.forEach(function (option) {
        var label = element("label", { "class": "kr-pg__option" });
        var input = element("input", { type: "radio", name: id, value: option.code });
        input.addEventListener("change", function () {
          if (input.checked) self.change(control.name, option.code);
        });
        label.appendChild(input);
        label.appendChild(element("span", {}, option.label));
        group.appendChild(label);
      });
      wrapper.appendChild(group);
    } else if (control.kind === "range") {
      wrapper = element("div", { "class": "kr-pg__range" });
      wrapper.appendChild(element("label", { "for": id }, control.label));
      // The slider's position is the value's place on a log scale (where every value
      // is positive), so equal distances are equal ratios; a drag takes the nearest
      // value, and an arrow key moves one value along.
      var input = element("input", { type: "range", id: id, min: "0", max: String(SLIDER_SPAN),
                                     step: "1" });
      var output = element("output", { "for": id, "class": "kr-pg__value" });
      input.addEventListener("input", function () {
        self.change(control.name, self.nearestStop(control.name, +input.value));
      });
      input.addEventListener("keydown", function (event) {
        var step = { ArrowLeft: -1, ArrowDown: -1, ArrowRight: 1, ArrowUp: 1 }[event.key];
        if (!step) return;
        event.preventDefault();
        var codes = self.rangeCodes(control.name);
        var at = codes.indexOf(self.state[control.name]);
        var next = codes[Math.min(codes.length - 1, Math.max(0, at + step))];
        if (next !== undefined && next !== self.state[control.name]) self.change(control.name, next);
      });
      wrapper.appendChild(input);
      wrapper.appendChild(output);
    } else {
      wrapper = element("div", { "class": "kr-pg__switch" });
      var label = element("label", { "for": id });
      var box = element("input", { type: "checkbox", id: id, role: "switch" });
      box.addEventListener("change", function () {
        self.change(control.name, box.checked ? "on" : "off");
      });
      label.appendChild(box);
      label.appendChild(element("span", {}, control.label));
      wrapper.appendChild(label);
    }
    if (control.help) wrapper.appendChild(element("p", { "class": "kr-pg__help" }, control.help));
    wrapper.setAttribute("data-control", control.name);
    this.inputs[control.name] = wrapper;
    return wrapper;
  };

  Playground.prototype.rangeCodes = function (name) {
    return this.available(name, this.state).filter(function (code) { return code !== "-"; });
  };

  // Where each of a range's values sits along the slider, from 0 to SLIDER_SPAN: by its
  // logarithm when all are positive numbers spanning a factor of ten or more (a γ, a
  // penalty), else evenly by order (a degree).
  Playground.prototype.stopPositions = function (name) {
    var codes = this.rangeCodes(name);
    var values = codes.map(function (code) { return this.optionValue(name, code); }, this);
    var logs = values.every(function (v) { return v > 0; })
      && Math.max.apply(null, values) >= 10 * Math.min.apply(null, values);
    var scale = logs ? values.map(Math.log) : codes.map(function (_, i) { return i; });
    var low = Math.min.apply(null, scale);
    var high = Math.max.apply(null, scale);
    return codes.map(function (code, i) {
      return { code: code,
               at: high > low ? Math.round(SLIDER_SPAN * (scale[i] - low) / (high - low)) : 0 };
    });
  };

  Playground.prototype.nearestStop = function (name, position) {
    var best = null;
    this.stopPositions(name).forEach(function (stop) {
      if (!best || Math.abs(stop.at - position) < Math.abs(best.at - position)) best = stop;
    });
    return best && best.code;
  };

  Playground.prototype.optionValue = function (name, code) {
    var options = this.byName[name].options;
    for (var i = 0; i < options.length; i++) {
      if (options[i].code === code) return Number(options[i].value);
    }
    return NaN;
  };

  Playground.prototype.label = function (name, code) {
    var control = this.byName[name];
    for (var i = 0; i < control.options.length; i++) {
      if (control.options[i].code === code) return control.options[i].label;
    }
    return code;
  };

  Playground.prototype.describe = function () {
    var parts = [];
    this.data.controls.forEach(function (c) {
      if (c.kind === "overlay") {
        if (this.overlays[c.name]) parts.push(c.label.toLowerCase());
        return;
      }
      var code = this.state[c.name];
      if (code === "-" || code === undefined) return;
      if (c.kind === "choice") parts.push(this.label(c.name, code));
      else if (c.kind === "range") parts.push(c.describe.replace("{}", this.label(c.name, code)));
      else if (code === "on") parts.push(c.label.toLowerCase());
    }, this);
    return parts.join(", ");
  };

  // ---- what a setting shows

  Playground.prototype.content = function () {
    var data = this.data;
    var key = this.keyOf(this.state);
    var parts = [];
    Object.keys(data.shared || {}).forEach(function (selector) {
      var pair = selector.split("=");
      if (this.state[pair[0]] === pair[1]) parts.push(data.shared[selector]);
    }, this);
    var setting = data.settings[key];
    parts.push(setting);
    Object.keys(this.overlays).forEach(function (name) {
      if (this.overlays[name] && setting.overlay && setting.overlay[name]) {
        parts.push(setting.overlay[name]);
      }
    }, this);
    var merged = { data: {}, values: {}, signals: {}, notes: [] };
    parts.forEach(function (part) {
      Object.keys(part.data || {}).forEach(function (name) {
        merged.data[name] = Object.assign(merged.data[name] || {}, part.data[name]);
      });
      Object.assign(merged.values, part.values || {});
      Object.assign(merged.signals, part.signals || {});
      (part.notes || []).forEach(function (note) {
        if (merged.notes.indexOf(note) < 0) merged.notes.push(note);
      });
    });
    return merged;
  };

  Playground.prototype.rows = function (columns) {
    var steps = this.data.steps;
    var names = Object.keys(columns || {});
    if (!names.length) return [];
    var decoded = {};
    var length = 0;
    names.forEach(function (name) {
      var column = columns[name];
      if (column && column.q) {
        decoded[name] = column.q.map(function (q) { return q * column.s / steps; });
      } else {
        decoded[name] = column;
      }
      length = Math.max(length, decoded[name].length);
    });
    var rows = [];
    for (var i = 0; i < length; i++) {
      var row = {};
      names.forEach(function (name) { row[name] = decoded[name][i]; });
      rows.push(row);
    }
    return rows;
  };

  // The charts this box draws: all of the playground's.
  Playground.prototype.chartNames = function () {
    return Object.keys(this.data.charts);
  };

  Playground.prototype.makeViews = function () {
    var self = this;
    var vega = this.vega;
    Object.keys(this.views).forEach(function (name) { self.views[name].finalize(); });
    this.views = {};
    this.scheme = isDark();
    this.chartNames().forEach(function (name) {
      var holder = self.chartBoxes[name];
      holder.textContent = "";
      var runtime = vega.parse(self.data.charts[name], vegaConfig());
      var view = new vega.View(runtime, { renderer: "svg", container: holder, hover: false,
                                          logger: quietAboutEmptyLayers(vega) });
      if (self.chartHeight) view.height(self.chartHeight);
      self.views[name] = view;
    });
  };

  Playground.prototype.show = function () {
    var self = this;
    var content = this.content();
    var labels = (this.data.text && this.data.text.labels) || {};
    var runs = Object.keys(this.views).map(function (name) {
      var view = self.views[name];
      var spec = self.data.charts[name];
      (spec.signals || []).forEach(function (signal) {
        if (signal.name in content.signals) {
          var value = content.signals[signal.name];
          view.signal(signal.name, typeof value === "string" && value in labels
                      ? labels[value] : value);
        }
      });
      (spec.data || []).forEach(function (set) {
        if (set.source || set.url || set.values) return;
        view.data(set.name, self.rows(content.data[set.name]));
      });
      return view.runAsync();
    });
    this.keyed.forEach(function (c) {
      if (c.kind === "range" && this.state[c.name] !== "-") {
        this.rangeMemory[this.context(this.state, c.name)] = this.state[c.name];
      }
    }, this);
    this.showText(content);
    this.showControls();
    this.toFragment();
    this.ready = Promise.all(runs).then(function () {
      self.box.setAttribute("data-kr-shown", self.keyOf(self.state));
    });
    return this.ready;
  };

  // A template's text with each {name} a number that opens its provenance like any
  // printed number (reader.js): which playground, setting and value it is, and the
  // function that computed it. Null when a value is missing (the line is left out).
  Playground.prototype.filled = function (template, values) {
    if (fill(template, values) === null) return null;
    var holder = document.createDocumentFragment();
    var setting = this.keyOf(this.state);
    var source = this.data.source || this.data.module;
    var parts = template.split(/\{([a-z_0-9]+)\}/);
    parts.forEach(function (part, index) {
      if (index % 2 === 0) {
        if (part) holder.appendChild(document.createTextNode(part));
        return;
      }
      holder.appendChild(element("span", {
        "class": "fact kr-pg__fact", "tabindex": "0",
        "data-fact": this.data.playground + "[" + setting + "]." + part,
        "data-kr-value": values[part],
        "data-kr-source": source + " (the playground's data, " + this.source.split("/").pop()
                          + ")"
      }, values[part]));
    }, this);
    return holder;
  };

  Playground.prototype.showText = function (content) {
    var text = this.data.text || {};
    var values = content.values;
    var described = this.describe();
    var caption = text.caption ? this.filled(text.caption, values) : null;
    this.caption.textContent = "Showing " + described + ".";
    if (caption) {
      this.caption.appendChild(document.createTextNode(" "));
      this.caption.appendChild(caption);
    }
    this.stats.textContent = "";
    (text.stats || []).forEach(function (pair) {
      var value = this.filled(pair[1], values);
      if (value === null) return;
      var row = element("div", { "class": "kr-pg__stat" });
      row.appendChild(element("dt", {}, pair[0]));
      var detail = element("dd", {});
      detail.appendChild(value);
      row.appendChild(detail);
      this.stats.appendChild(row);
    }, this);
    this.notes.textContent = "";
    content.notes.forEach(function (name) {
      if (text.notes && text.notes[name]) {
        this.notes.appendChild(element("p", { "class": "kr-pg__note" }, text.notes[name]));
      }
    }, this);
  };

  Playground.prototype.showControls = function () {
    this.data.controls.forEach(function (control) {
      var wrapper = this.inputs[control.name];
      var code = control.kind === "overlay" ? (this.overlays[control.name] ? "on" : "off")
        : this.state[control.name];
      if (control.kind === "choice") {
        var codes = this.available(control.name, this.state);
        wrapper.querySelectorAll("input").forEach(function (input) {
          input.checked = input.value === code;
          input.disabled = codes.indexOf(input.value) < 0;
        });
        wrapper.disabled = code === "-";
        wrapper.classList.toggle("kr-pg--off", code === "-");
      } else if (control.kind === "range") {
        var input = wrapper.querySelector("input");
        var output = wrapper.querySelector("output");
        var stops = this.stopPositions(control.name);
        var off = code === "-" || !stops.length;
        var here = stops.filter(function (stop) { return stop.code === code; })[0];
        input.value = String(here ? here.at : 0);
        input.disabled = off;
        wrapper.classList.toggle("kr-pg--off", off);
        var shown = off ? "does not apply" : this.label(control.name, code);
        output.textContent = shown;
        input.setAttribute("aria-valuetext", off ? control.label + " does not apply"
                           : control.describe.replace("{}", shown));
      } else {
        wrapper.querySelector("input").checked = code === "on";
      }
    }, this);
  };

  // ---- the URL fragment

  Playground.prototype.fragment = function () {
    var parts = [];
    this.data.controls.forEach(function (control) {
      var code = control.kind === "overlay" ? (this.overlays[control.name] ? "on" : "off")
        : this.state[control.name];
      parts.push(control.name + "=" + code);
    }, this);
    return this.id + ":" + parts.join(",");
  };

  Playground.prototype.toFragment = function () {
    var wanted = "#" + this.fragment();
    if (location.hash !== wanted) history.replaceState(history.state, "", wanted);
  };

  Playground.prototype.fromFragment = function (hash) {
    hash = decodeURIComponent((hash || location.hash).replace(/^#/, ""));
    var prefix = this.id + ":";
    if (hash.indexOf(prefix) !== 0) return null;
    var codes = {};
    hash.slice(prefix.length).split(",").forEach(function (pair) {
      var at = pair.indexOf("=");
      if (at > 0) codes[pair.slice(0, at)] = pair.slice(at + 1);
    });
    return codes;
  };

  // ---------------------------------------------------------------- a setting in place

  // One setting of a playground drawn beside the sentence that rests on it: one
  // chart, the setting in words and a link that opens it in the playground. It
  // has no controls and never touches the URL; it is drawn when the reader
  // scrolls near it, from the same data file as the playground.
  function SettingView(cell, source, chart) {
    Playground.call(this, cell);
    this.source = source;
    this.chart = chart;
    this.setting = cell.getAttribute("data-kr-setting");
    this.id = this.setting.slice(0, this.setting.indexOf(":"));
  }
  SettingView.prototype = Object.create(Playground.prototype);
  SettingView.prototype.chartHeight = 190;

  SettingView.prototype.chartNames = function () { return [this.chart]; };

  SettingView.prototype.draw = function () {
    var self = this;
    if (this.started) return this.started;
    this.started = Promise.all([loadData(this.source), loadVega()]).then(function (loaded) {
      self.data = loaded[0];
      self.vega = loaded[1];
      self.index();
      var codes = self.fromFragment("#" + self.setting);
      self.keyed.forEach(function (c) { self.state[c.name] = codes[c.name] || "-"; });
      self.data.controls.forEach(function (c) {
        if (c.kind === "overlay") self.overlays[c.name] = codes[c.name] === "on";
      });
      if (!self.data.settings[self.keyOf(self.state)]) {
        throw new Error("the data file has no setting " + self.setting);
      }
      var holder = self.box.querySelector(".kr-view__chart");
      var spec = self.data.charts[self.chart];
      self.chartBoxes = {};
      self.chartBoxes[self.chart] = holder;
      self.line = self.box.querySelector(".kr-view__setting");
      self.makeViews();
      // An image, with its words, once there is something drawn to name.
      holder.setAttribute("role", "img");
      holder.setAttribute("aria-label", (spec.description || "Chart") + ": " + self.describe());
      return self.show();
    }).catch(function (error) {
      self.box.querySelector(".kr-view__setting").textContent =
        "This view could not be drawn (" + error.message + ").";
      self.started = null;
    });
    return this.started;
  };

  SettingView.prototype.showText = function (content) {
    var caption = this.data.text && this.data.text.caption
      ? fill(this.data.text.caption, content.values) : null;
    this.line.textContent = this.describe().replace(/^./, function (first) {
      return first.toUpperCase();
    }) + "." + (caption ? " " + caption : "");
  };
  SettingView.prototype.showControls = function () {};
  SettingView.prototype.toFragment = function () {};

  var settingViews = [];
  var nearby = "IntersectionObserver" in window ? new IntersectionObserver(function (entries) {
    entries.forEach(function (entry) {
      if (!entry.isIntersecting) return;
      nearby.unobserve(entry.target);
      entry.target.krView.draw();
    });
  }, { rootMargin: "600px 0px" }) : null;

  function findSettingViews() {
    settingViews = settingViews.filter(function (view) {
      return document.body.contains(view.box);
    });
    document.querySelectorAll(".kr-views[data-kr-views]").forEach(function (figure) {
      var source = figure.getAttribute("data-kr-views");
      var chart = figure.getAttribute("data-kr-chart");
      figure.querySelectorAll(".kr-view[data-kr-setting]").forEach(function (cell) {
        if (cell.krView) return;
        var view = new SettingView(cell, source, chart);
        cell.krView = view;
        settingViews.push(view);
        if (nearby) nearby.observe(cell); else view.draw();
      });
    });
  }

  // ---------------------------------------------------------------- every page

  var playgrounds = {};
  window.krPlaygrounds = playgrounds;

  function openFromHash(hash, scroll) {
    Object.keys(playgrounds).forEach(function (id) {
      var playground = playgrounds[id];
      var codes = playground.fromFragment(hash);
      if (!codes) return;
      playground.start().then(function () {
        playground.apply(codes);
        if (scroll) playground.box.scrollIntoView({ block: "start" });
      });
    });
  }

  new MutationObserver(function () {
    var drawn = Object.keys(playgrounds).map(function (id) { return playgrounds[id]; })
      .concat(settingViews);
    drawn.forEach(function (playground) {
      if (playground.data && playground.views && Object.keys(playground.views).length
          && playground.scheme !== isDark()) {
        playground.makeViews();
        playground.show();
      }
    });
  }).observe(document.body, { attributes: true, attributeFilter: ["data-md-color-scheme"] });

  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a.kr-try");
    if (!link) return;
    // The theme may have made the link absolute; the fragment is what names the setting.
    var href = link.getAttribute("href");
    var hash = href.slice(href.indexOf("#"));
    event.preventDefault();
    // A history entry of its own, so that Back returns to the sentence the reader left;
    // the entry left behind remembers where that sentence was on the screen.
    var state = Object.assign({}, history.state, { krReturn: window.scrollY });
    history.replaceState(state, "");
    history.pushState(null, "", hash);
    openFromHash(hash, true);
  });
  window.addEventListener("popstate", function (event) {
    // The theme handles Back too, and scrolls late when the page is busy drawing: put
    // the reader back at once and again over the next moments, unless they scroll first.
    var back = event.state && event.state.krReturn;
    if (typeof back !== "number") return;
    var moved = false;
    var stop = function () { moved = true; };
    var inputs = ["wheel", "touchstart", "keydown"];
    inputs.forEach(function (type) { window.addEventListener(type, stop, { passive: true }); });
    var delays = [0, 50, 150, 400, 800];
    delays.forEach(function (delay, index) {
      setTimeout(function () {
        if (!moved) window.scrollTo(0, back);
        if (index === delays.length - 1) {
          inputs.forEach(function (type) { window.removeEventListener(type, stop); });
        }
      }, delay);
    });
  });
  window.addEventListener("hashchange", function () { openFromHash(location.hash, true); });

  function onPage() {
    // The theme swaps the page's content on navigation (and on some changes of
    // the fragment); a playground whose box is gone hands what it loaded to the
    // box that replaced it, so the reader sees no reload.
    var previous = {};
    Object.keys(playgrounds).forEach(function (id) {
      if (!document.body.contains(playgrounds[id].box)) {
        previous[id] = playgrounds[id];
        Object.keys(playgrounds[id].views).forEach(function (name) {
          playgrounds[id].views[name].finalize();
        });
        delete playgrounds[id];
      }
    });
    document.querySelectorAll(".kr-playground[data-kr-playground]").forEach(function (box) {
      if (playgrounds[box.id]) return;
      var playground = new Playground(box);
      playgrounds[box.id] = playground;
      var before = previous[box.id];
      if (before && before.data && before.source === playground.source) {
        playground.data = before.data;
        playground.vega = before.vega;
        playground.remembered = before.remembered;
        playground.started = Promise.resolve(playground);
        playground.build();
      }
      var button = box.querySelector("[data-kr-start]");
      if (button) {
        button.addEventListener("click", function () {
          playground.start().then(function () {
            var first = box.querySelector(".kr-pg__controls input");
            if (first) first.focus();
          });
        });
      }
    });
    findSettingViews();
    openFromHash(location.hash, true);
  }

  if (typeof document$ !== "undefined") {
    document$.subscribe(onPage);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", onPage);
  } else {
    onPage();
  }
})();
