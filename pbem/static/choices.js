// Choices that depend on others (where a moved piece goes, on where it starts), for a page
// that works without this script too.
// - A select with data-adds-from="<field> ..." also offers the values chosen in those fields
//   (a piece placed this turn may move on at once).
// - A select with data-follows="<field>" and data-choices-by='{"<value>": [choices...]}'
//   offers the choices of the value chosen in <field>; with none chosen, those of every value
//   <field> offers (as the page does without this script, for the values it came with).
// The board outlines the choice being made: the values <field> offers until one is chosen
// (if they are places on the board; else every choice that may follow), then the choices
// that follow from it; choosing one arms the map for the next choice.
(function () {
  "use strict";
  // The board's outlines (a halo path, then the line, for each highlighted part) are drawn
  // in its [data-outlines] group like the hidden pair in [data-outline-model].
  var board = document.getElementById("board");
  var group = board ? board.querySelector("[data-outlines]") : null;
  var model = board ? board.querySelector("[data-outline-model]") : null;

  function outline(ids) {
    if (!group || !model) return;
    group.querySelectorAll("[data-highlight]").forEach(function (path) {
      if (path.previousElementSibling) path.previousElementSibling.remove();
      path.remove();
    });
    ids.forEach(function (id) {
      var shape = board.querySelector("[data-territory='" + id + "']");
      if (shape && !shape.hasAttribute("d")) shape = shape.querySelector("path[d]");  // a region drawn as a group
      if (!shape) return;
      Array.prototype.forEach.call(model.children, function (part, i) {
        var drawn = part.cloneNode(false);
        drawn.setAttribute("d", shape.getAttribute("d"));
        if (i === model.children.length - 1) drawn.setAttribute("data-highlight", id);
        group.appendChild(drawn);
      });
    });
  }

  function values(select) {
    return Array.prototype.map.call(select.options, function (o) { return o.value; }).filter(Boolean);
  }

  // Offer the blank entry, then `ids` in order (each labelled as elsewhere in the form),
  // keeping the value if it is still offered.
  function offer(select, blank, ids, labels, suffix) {
    var kept = select.value;
    while (select.options.length) select.remove(0);
    select.appendChild(blank);
    ids.forEach(function (id) {
      select.appendChild(new Option((labels[id] || id) + (suffix ? suffix(id) : ""), id));
    });
    select.value = ids.indexOf(kept) >= 0 ? kept : "";
  }

  function unique(ids) {
    return ids.filter(function (id, i) { return ids.indexOf(id) === i; });
  }

  function onMap(ids) {
    return !!board && ids.some(function (id) { return board.querySelector("[data-territory='" + id + "']"); });
  }

  function byNumber(a, b) { return (Number(a) || 0) - (Number(b) || 0); }

  document.querySelectorAll("select[data-follows][data-choices-by]").forEach(function (select) {
    var form = select.form;
    var leader = form.querySelector("select[name='" + select.getAttribute("data-follows") + "']");
    if (!leader) return;
    var by = JSON.parse(select.getAttribute("data-choices-by"));
    var labels = {};  // every value's label, from any list of the form that names it
    form.querySelectorAll("option").forEach(function (o) { if (o.value && !labels[o.value]) labels[o.value] = o.text; });
    var blank = select.options[0], leaderBlank = leader.options[0];
    var listed = values(leader);
    var adders = (leader.getAttribute("data-adds-from") || "").split(" ").filter(Boolean)
      .map(function (name) { return form.querySelector("select[name='" + name + "']"); })
      .filter(Boolean);

    function gather() {
      var more = adders.map(function (adder) { return adder.value; })
        .filter(function (id) { return id && listed.indexOf(id) < 0; });
      var ids = unique(listed.concat(more)).sort(byNumber);
      offer(leader, leaderBlank, ids, labels, function (id) { return listed.indexOf(id) < 0 ? " (placed now)" : ""; });
    }

    function follow() {
      var origins = leader.value ? [leader.value] : values(leader);
      var ends = [];
      origins.forEach(function (id) { ends = ends.concat((by[id] || []).map(String)); });
      offer(select, blank, unique(ends).sort(byNumber), labels);
      // A leader that is not a place (an army) outlines where its choices can go.
      outline(leader.value || !onMap(origins) ? values(select) : origins);
      if (leader.value) {
        var arm = form.querySelector("input[name='map_target'][value='" + select.name + "']");
        if (arm) arm.checked = true;
      }
    }

    adders.forEach(function (adder) { adder.addEventListener("change", function () { gather(); follow(); }); });
    leader.addEventListener("change", follow);
    gather();
    follow();
  });
})();
