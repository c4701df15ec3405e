// The game page works without this script; with it, clicking a territory on the board
// fills the order form, and the page reloads itself when the game moves on.
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  // The decision form whose fields the board fills: the one with a field for map clicks.
  function armedSelect() {
    var field = document.querySelector("form.decision [data-map-target]");
    var form = field ? field.closest("form") : null;
    if (!form) return null;
    var target = form.querySelector("input[name='map_target']:checked");
    var name = target ? target.value : "place";
    return form.querySelector("select[data-map-target='" + name + "']");
  }

  function choose(territory) {
    var select = armedSelect();
    if (!select) return;
    var option = select.querySelector("option[value='" + territory + "']");
    if (!option) return;
    select.value = territory;
    select.dispatchEvent(new Event("change", { bubbles: true }));
    document.querySelectorAll("#board [data-territory].selected-" + select.name).forEach(function (el) {
      el.classList.remove("selected-" + select.name);
    });
    document.querySelectorAll("#board [data-territory='" + territory + "']").forEach(function (el) {
      el.classList.add("selected-" + select.name);
    });
  }

  // The territory under a click: the element clicked, or (for a name or pawn drawn over
  // it) the territory beneath that point.
  function territoryAt(event, board) {
    var hit = event.target.closest("[data-territory]");
    if (hit && board.contains(hit)) return hit;
    var stack = document.elementsFromPoint(event.clientX, event.clientY);
    for (var i = 0; i < stack.length; i++) {
      if (stack[i].hasAttribute("data-territory") && board.contains(stack[i])) return stack[i];
    }
    return null;
  }

  var board = document.getElementById("board");
  if (board) {
    board.addEventListener("click", function (event) {
      var hit = territoryAt(event, board);
      if (!hit || !armedSelect()) return;
      event.preventDefault();  // territory links in the SVG would otherwise navigate
      choose(hit.getAttribute("data-territory"));
    });
  }

  // Reload when the game's version changes, unless the player is filling in a form.
  var meta = document.querySelector("meta[name='pbem-version-url']");
  var busy = false;
  document.addEventListener("input", function () { busy = true; });
  document.addEventListener("change", function () { busy = true; });
  if (meta) {
    var url = meta.getAttribute("content");
    var version = meta.getAttribute("data-version");
    setInterval(function () {
      if (busy || document.hidden) return;
      fetch(url, { credentials: "same-origin" }).then(function (r) { return r.json(); }).then(function (data) {
        if (String(data.version) !== version) window.location.reload();
      }).catch(function () {});
    }, 10000);
  }
})();
