// A choice that depends on another (where a moved piece goes, on where it starts): the select
// carrying data-follows="<field>" and data-choices-by='{"<value>": [choices...]}' offers only
// the choices of the value chosen in <field>, and the board outlines them; with no value
// chosen it offers all of them (as the page does without this script) and the board keeps
// its outlines (the choices of <field>).  Choosing a value arms the map for the next choice.
(function () {
  "use strict";
  var board = document.getElementById("board");
  var shown = board ? Array.prototype.slice.call(board.querySelectorAll("[data-highlight]")) : [];
  var first = shown.map(function (path) { return path.getAttribute("data-highlight"); });
  // The outlines are drawn like those the page came with: a halo path, then the line.
  var model = shown[0], halo = model && model.previousElementSibling, group = model && model.parentNode;

  // Outline exactly `ids` on the board.
  function outline(ids) {
    if (!model) return;
    board.querySelectorAll("[data-highlight]").forEach(function (path) {
      if (path.previousElementSibling) path.previousElementSibling.remove();
      path.remove();
    });
    ids.forEach(function (id) {
      var shape = board.querySelector("[data-territory='" + id + "']");
      if (!shape) return;
      var under = halo.cloneNode(false), line = model.cloneNode(false);
      under.setAttribute("d", shape.getAttribute("d"));
      line.setAttribute("d", shape.getAttribute("d"));
      line.setAttribute("data-highlight", id);
      group.appendChild(under);
      group.appendChild(line);
    });
  }

  document.querySelectorAll("select[data-follows][data-choices-by]").forEach(function (select) {
    var form = select.form;
    var leader = form.querySelector("select[name='" + select.getAttribute("data-follows") + "']");
    if (!leader) return;
    var by = JSON.parse(select.getAttribute("data-choices-by"));
    var options = Array.prototype.slice.call(select.options);  // the blank entry first
    function follow() {
      var allowed = leader.value ? (by[leader.value] || []).map(String) : null;
      var kept = select.value;
      options.forEach(function (option) {
        var offered = !option.value || !allowed || allowed.indexOf(option.value) >= 0;
        if (offered && option.parentNode !== select) select.appendChild(option);
        if (!offered && option.parentNode === select) option.remove();
      });
      // Back in their first order (removing and re-adding may have moved them).
      options.forEach(function (option) { if (option.parentNode === select) select.appendChild(option); });
      select.value = allowed && allowed.indexOf(kept) < 0 ? "" : kept;
      outline(allowed || first);
      if (allowed) {
        var arm = form.querySelector("input[name='map_target'][value='" + select.name + "']");
        if (arm) arm.checked = true;
      }
    }
    leader.addEventListener("change", follow);
    follow();
  });
})();
