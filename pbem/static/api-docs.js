// Starts Swagger UI on the API docs page (templates/api/docs.html).  A file of its own, not an
// inline script, so the Content-Security-Policy stays "script-src 'self'".
(function () {
  "use strict";
  var root = document.getElementById("swagger-ui");
  if (!root || typeof window.SwaggerUIBundle !== "function") {
    return;
  }
  root.textContent = "";
  window.SwaggerUIBundle({
    url: root.getAttribute("data-openapi"),
    domNode: root,
    deepLinking: true,
    // Never send the document to an outside validator.
    validatorUrl: null,
    presets: [window.SwaggerUIBundle.presets.apis],
  });
})();
