/* tracediff call tree: the differential flame graph and its tree table (stub). */
(function () {
  'use strict';
})();
