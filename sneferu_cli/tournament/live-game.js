// The live part of a game's page (sneferu tournament --live, SPEC.md 9.13), put after the
// replay viewer's script: game GAME.live's moves and steps as the stream shows them. The
// page follows the game while it shows the last step; stepping back stays put.
(function () {
  const number = GAME.live;
  const slider = document.getElementById("slider");
  function refresh(follow) {
    document.getElementById("moves").replaceChildren();
    buildMoves();
    slider.max = GAME.steps.length - 1;
    show(follow ? GAME.steps.length - 1 : ply);
  }
  const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") +
                           location.host + "/stream");
  ws.onmessage = e => {
    const m = JSON.parse(e.data);
    const follow = ply === GAME.steps.length - 1;
    if (m.type === "snapshot") {
      const g = m.games.find(g => g.game === number);
      if (g) { GAME.moves = g.moves; GAME.steps = g.steps; refresh(follow); }
    } else if (m.game !== number) {
      return;
    } else if (m.type === "move") {
      GAME.moves.push(m.move); GAME.steps.push(m.step); refresh(follow);
    } else if (m.type === "step") {
      GAME.steps[m.ply] = m.step;
      if (m.ply > 0) GAME.moves[m.ply - 1].draws = m.draws;
      refresh(follow);
    } else if (m.type === "end") {
      document.getElementById("title").textContent = GAME.title + " \u00B7 over";
      document.body.dataset.over = "1";
    }
  };
})();
