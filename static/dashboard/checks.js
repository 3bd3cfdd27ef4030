// The staff RECYCLE games page follows each game's playability check, which a background job
// runs after the upload: every element marked data-check-status="queued" or "running" asks
// /staff/games/<id>/check/ every two seconds and shows the result when the check ends
// (data-check-status becomes "done" or "failed", and its .check-text says what happened).
(function () {
  "use strict";
  const PENDING = new Set(["queued", "running"]);

  function pendingGames() {
    const games = new Map();
    for (const node of document.querySelectorAll("[data-check-game][data-check-status]")) {
      if (!PENDING.has(node.dataset.checkStatus)) continue;
      const id = node.dataset.checkGame;
      if (!games.has(id)) games.set(id, []);
      games.get(id).push(node);
    }
    return games;
  }

  async function follow() {
    const games = pendingGames();
    if (games.size === 0) return;
    for (const [id, nodes] of games) {
      try {
        const response = await fetch(`/staff/games/${encodeURIComponent(id)}/check/`, {
          headers: { Accept: "application/json" },
          credentials: "same-origin",
        });
        if (!response.ok) continue;
        const check = await response.json();
        for (const node of nodes) {
          node.dataset.checkStatus = check.status;
          const text = node.querySelector(".check-text");
          if (text) text.textContent = check.text;
        }
      } catch (error) {
        // A dropped request: the next round asks again.
      }
    }
    setTimeout(follow, 2000);
  }

  document.addEventListener("DOMContentLoaded", () => setTimeout(follow, 1000));
})();
