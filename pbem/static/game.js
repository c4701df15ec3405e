// The game page works without this script; with it, clicking a territory on the board
// fills the order form; the board zooms and pans (live.js keeps the page up to date).
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

  // Zoom: buttons before every board picture; the board's box pans (scrolls) when zoomed.
  document.querySelectorAll(".board").forEach(function (box) {
    if (!box.querySelector("svg")) return;
    var bar = document.createElement("div");
    bar.className = "zoom";
    bar.setAttribute("role", "group");
    bar.setAttribute("aria-label", "Zoom the board");
    [["\u2212", -1, "Zoom out"], ["+", 1, "Zoom in"]].forEach(function (spec) {
      var button = document.createElement("button");
      button.type = "button";
      button.textContent = spec[0];
      button.setAttribute("aria-label", spec[2]);
      button.className = spec[1] > 0 ? "zoom-in" : "zoom-out";
      button.addEventListener("click", function () {
        var shown = box.querySelector("svg").getBoundingClientRect().width / box.clientWidth;
        var level = Math.min(4, Math.max(1, Math.round(shown) + spec[1]));
        box.setAttribute("data-zoom", String(level));
      });
      bar.appendChild(button);
    });
    box.parentNode.insertBefore(bar, box);
  });

  var board = document.getElementById("board");
  if (board) {
    board.addEventListener("click", function (event) {
      var hit = territoryAt(event, board);
      if (!hit || !armedSelect()) return;
      event.preventDefault();  // territory links in the SVG would otherwise navigate
      choose(hit.getAttribute("data-territory"));
    });
  }
})();
