// A live page (pbem/live.py): the page shows the new state the moment it changes, through
// its event stream, unless the reader is filling in a form: then it says so and lets them
// reload.  A slow poll stands in when the stream is cut (a proxy that buffers);
// data-poll-seconds="0" turns it off.  The page works without this script.
(function () {
  "use strict";
  var live = document.querySelector("meta[name='pbem-live']");
  var busy = false;
  document.addEventListener("input", function () { busy = true; });
  document.addEventListener("change", function () { busy = true; });

  function moved() {
    if (!busy) { window.location.reload(); return; }
    if (document.getElementById("moved")) return;
    var note = document.createElement("p");
    note.id = "moved";
    note.className = "flash moved";
    note.setAttribute("role", "status");
    note.textContent = (live.getAttribute("data-moved") || "This page has changed.") + " ";
    var again = document.createElement("a");
    again.href = "";
    again.textContent = "Show it";
    note.appendChild(again);
    (document.querySelector("main") || document.body).prepend(note);
  }

  if (live) {
    var stamp = live.getAttribute("data-stamp");
    if (window.EventSource) {
      var address = new URL(live.getAttribute("content"), window.location.href);
      address.searchParams.set("stamp", stamp);
      var stream = new EventSource(address.toString());
      stream.addEventListener("change", function (event) {
        if (event.data !== stamp) { stream.close(); moved(); }
      });
    }
    var seconds = Number(live.getAttribute("data-poll-seconds"));
    if (seconds > 0) {
      setInterval(function () {
        if (document.hidden) return;
        fetch(live.getAttribute("data-poll-url"), { credentials: "same-origin" })
          .then(function (r) { return r.json(); })
          .then(function (data) { if (String(data.stamp) !== stamp) moved(); })
          .catch(function () {});
      }, seconds * 1000);
    }
  }
})();
