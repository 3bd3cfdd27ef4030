"""The page's client, refused by a busy server (close 4503 with ``retry_after``), comes back when told.

The page's own ``TableClient`` (static/js/client.js) runs against a stand-in
``WebSocket`` that plays the server: it opens, refuses with the error and the
close code the gate sends (cardtable/tables/live/admission.py), then serves.
"""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser]

FAKE_SOCKET_JS = """() => {
  window.attempts = [];
  window.plan = [];  // per attempt: {retry_after} to refuse, {drop: true} to fail, or {} to serve
  class FakeSocket {
    static OPEN = 1;
    constructor(url) {
      this.readyState = 0;
      window.attempts.push(performance.now());
      const step = window.plan.shift() || {};
      setTimeout(() => {
        if (step.drop) {
          this.readyState = 3;
          this.onclose?.({ code: 1006 });
          return;
        }
        this.readyState = 1;
        this.onopen?.();
        if (step.retry_after !== undefined) {
          const error = { type: "error", code: "rate_limited", message: "busy" };
          error.retry_after = step.retry_after;
          this.onmessage?.({ data: JSON.stringify(error) });
          this.readyState = 3;
          this.onclose?.({ code: 4503 });
        } else {
          this.onmessage?.({ data: JSON.stringify({ type: "state", version: 1 }) });
        }
      }, 5);
    }
    send() {}
    close() {}
  }
  window.WebSocket = FakeSocket;
}"""

RUN_JS = """async (plan) => {
  window.plan = plan;
  const { TableClient } = await import('/static/js/client.js');
  const states = [];
  new TableClient('/ws/tables/x/', { onState: (m) => states.push(m) });
  const deadline = performance.now() + 15000;
  while (states.length === 0 && performance.now() < deadline) {
    await new Promise((r) => setTimeout(r, 20));
  }
  const at = window.attempts;
  return { served: states.length, gaps: at.slice(1).map((t, i) => (t - at[i]) / 1000) };
}"""


def test_a_refused_client_waits_the_servers_retry_time_and_a_failed_one_backs_off(
    site_server, new_page
) -> None:
    page = new_page()
    page.goto(site_server.url + "/")
    page.evaluate(FAKE_SOCKET_JS)
    # Refused twice with different retry times, then a plain failure, then served.
    result = page.evaluate(RUN_JS, [{"retry_after": 2.0}, {"retry_after": 0.3}, {"drop": True}, {}])
    assert result["served"] == 1
    first, second, third = result["gaps"]
    assert 1.8 <= first <= 2.6, result  # 2.0 s ± 10 %, plus the stand-in's few ms
    assert 0.27 <= second <= 0.6, result  # the server's word, not the doubling backoff
    # A failure without a retry time falls back to the backoff, which the refusals have
    # not doubled: 0.5 s ± 25 %.
    assert 0.37 <= third <= 0.9, result
