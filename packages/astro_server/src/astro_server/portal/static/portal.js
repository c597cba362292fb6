// Customer portal: progressive enhancement only; every page works without this file.
"use strict";
(function () {
  // Forms marked data-confirm ask before they are sent (delete, rotate secret).
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var question = form.getAttribute && form.getAttribute("data-confirm");
    if (question && !window.confirm(question)) event.preventDefault();
  });

  // Copy buttons: data-copy names the input whose value is copied.
  document.querySelectorAll("[data-copy]").forEach(function (button) {
    button.addEventListener("click", function () {
      var input = document.getElementById(button.getAttribute("data-copy"));
      var status = document.getElementById("copy-status");
      var done = function () { if (status) status.textContent = button.getAttribute("data-copied"); };
      input.select();
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(input.value).then(done, function () { document.execCommand("copy"); done(); });
      } else {
        document.execCommand("copy");
        done();
      }
    });
  });

  // Colour swatches (style attributes are not allowed by the portal's CSP, so set here).
  document.querySelectorAll("[data-color]").forEach(function (el) {
    var colour = el.getAttribute("data-color");
    if (/^#[0-9a-fA-F]{6}$/.test(colour)) el.style.background = colour;
  });

  // Live preview of the report cover: the server draws it from the reports' own cover
  // template (/portal/brands/preview) with the form's values; reloaded as they change.
  var form = document.getElementById("brand-form");
  var cover = document.getElementById("cover");
  if (!form || !cover) return;
  var picker = document.getElementById("primary_color_picker");
  var colourInput = document.getElementById("primary_color");
  var names = ["brand_name", "primary_color", "logo_url", "contact_email", "contact_phone", "contact_url"];
  var timer = null;
  function field(name) { return (form.elements[name] && form.elements[name].value.trim()) || ""; }
  function render() {
    var query = new URLSearchParams({ lang: cover.getAttribute("data-lang") || "en" });
    names.forEach(function (name) { query.set(name, field(name)); });
    var next = cover.getAttribute("data-preview") + "?" + query.toString();
    if (cover.getAttribute("src") !== next) cover.setAttribute("src", next);
  }
  function soon() { clearTimeout(timer); timer = setTimeout(render, 300); }
  picker.addEventListener("input", function () { colourInput.value = picker.value; soon(); });
  colourInput.addEventListener("input", function () {
    if (/^#[0-9a-fA-F]{6}$/.test(colourInput.value)) picker.value = colourInput.value.toLowerCase();
    soon();
  });
  form.addEventListener("input", soon);
})();

// Pages with data-refresh="N" (a report being written) reload every N seconds until it is done.
(function () {
  var holder = document.querySelector("[data-refresh]");
  if (!holder) return;
  var seconds = parseFloat(holder.getAttribute("data-refresh")) || 3;
  window.setTimeout(function () { window.location.reload(); }, seconds * 1000);
})();

// Birth form: place search over the bundled gazetteer fills the coordinates and the time zone.
(function () {
  var input = document.querySelector("[data-place-search]");
  if (!input) return;
  var list = document.getElementById(input.getAttribute("aria-controls"));
  var timer = null;
  var asked = "";
  function fill(place) {
    input.value = place.label;
    document.getElementById("latitude").value = place.latitude;
    document.getElementById("longitude").value = place.longitude;
    document.getElementById("timezone").value = place.timezone;
    list.textContent = "";
    input.focus();
  }
  function show(places) {
    list.textContent = "";
    places.forEach(function (place) {
      var item = document.createElement("li");
      var button = document.createElement("button");
      button.type = "button";
      button.textContent = place.label + " (" + place.timezone + ")";
      button.addEventListener("click", function () { fill(place); });
      item.appendChild(button);
      list.appendChild(item);
    });
  }
  input.addEventListener("input", function () {
    window.clearTimeout(timer);
    var query = input.value.trim();
    if (query.length < 2) { list.textContent = ""; return; }
    timer = window.setTimeout(function () {
      asked = query;
      fetch(input.getAttribute("data-place-search") + "?q=" + encodeURIComponent(query), {
        headers: { Accept: "application/json" }, credentials: "same-origin"
      }).then(function (r) { return r.json(); }).then(function (body) {
        if (asked === query) show(body.places || []);
      });
    }, 200);
  });
})();

// Visual readings: the upload happens in the browser (the page says so without JavaScript).
// SHA-256 of the photo (SubtleCrypto: a secure context, https or http on localhost/127.0.0.1),
// the grant through the portal, the PUT of the bytes to the signed URL, then complete and queue
// through the portal; then the reading's page, which follows the job.
(function () {
  var form = document.getElementById("visual-upload");
  if (!form) return;
  // The page says the upload needs JavaScript; with it, the form replaces that notice.
  document.getElementById("upload-needs-js").hidden = true;
  form.hidden = false;
  var status = document.getElementById("upload-status");
  var problem = document.getElementById("upload-error");
  var button = form.querySelector("button[type=submit]");
  var handField = document.getElementById("hand-field");
  var TYPES = ["image/jpeg", "image/png", "image/webp"];
  var MAX_BYTES = 10000000;
  function msg(name) { return form.getAttribute("data-msg-" + name) || name; }
  function say(text) { status.textContent = text; }
  function fail(text) {
    problem.textContent = text;
    problem.hidden = false;
    say("");
    button.disabled = false;
  }
  function kind() { return form.querySelector("input[name=kind]:checked").value; }
  function showHand() {
    var palm = kind() === "palm";
    handField.hidden = !palm;
    document.getElementById("hand").disabled = !palm;
  }
  form.querySelectorAll("input[name=kind]").forEach(function (r) { r.addEventListener("change", showHand); });
  showHand();
  function hex(buffer) {
    return Array.prototype.map.call(new Uint8Array(buffer), function (b) {
      return ("0" + b.toString(16)).slice(-2);
    }).join("");
  }
  // A portal step: a form POST with the page's CSRF token; the answer is the API's JSON.
  function post(url, fields) {
    fields.csrf_token = form.elements.csrf_token.value;
    return fetch(url, {
      method: "POST", credentials: "same-origin", body: new URLSearchParams(fields),
      headers: { Accept: "application/json" }
    }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (body) {
        if (response.status === 401 && body.login) window.location.assign(body.login);
        if (!response.ok) {
          var text = body.message || msg("failed");
          var details = (body.details || []).map(function (d) { return d.message; });
          var problems = (body.validation && body.validation.problems) || [];
          throw new Error([text].concat(details, problems).join(" "));
        }
        return body;
      });
    });
  }
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    problem.hidden = true;
    var file = document.getElementById("photo").files[0];
    if (!file) return fail(msg("choose"));
    if (TYPES.indexOf(file.type) < 0) return fail(msg("type"));
    if (file.size < 1 || file.size > MAX_BYTES) return fail(msg("size"));
    if (!window.crypto || !window.crypto.subtle) return fail(msg("insecure"));
    button.disabled = true;
    var chosen = kind();
    var bytes;
    var grant;
    say(msg("hashing"));
    file.arrayBuffer().then(function (buffer) {
      bytes = buffer;
      return window.crypto.subtle.digest("SHA-256", buffer);
    }).then(function (digest) {
      say(msg("granting"));
      return post(form.getAttribute("data-grant"), {
        content_length: String(file.size), sha256: hex(digest), content_type: file.type, kind: chosen
      });
    }).then(function (answer) {
      grant = answer;
      say(msg("sending"));
      // Content-Length is set by the browser itself (fetch may not set it).
      var headers = {};
      Object.keys(grant.required_headers || {}).forEach(function (name) {
        if (name.toLowerCase() !== "content-length") headers[name] = grant.required_headers[name];
      });
      return fetch(grant.upload_url, { method: grant.method || "PUT", headers: headers, body: bytes });
    }).then(function (response) {
      if (!response.ok) {
        return response.json().catch(function () { return {}; }).then(function (body) {
          throw new Error(body.message || msg("failed"));
        });
      }
      say(msg("checking"));
      return post(form.getAttribute("data-grant") + "/" + encodeURIComponent(grant.upload_id) + "/complete", {});
    }).then(function () {
      say(msg("queuing"));
      var fields = { upload_id: grant.upload_id, language: form.elements.language.value };
      if (chosen === "palm") fields.hand = form.elements.hand.value;
      return post(form.getAttribute("data-create"), fields);
    }).then(function (created) {
      window.location.assign(created.page);
    }).catch(function (error) { fail(error.message || msg("failed")); });
  });
})();
