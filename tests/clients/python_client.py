"""Drives python-socketio 5.x through every event and prints what it observed as one JSON line.

Usage: python python_client.py <server-url> <item-id> <polling|websocket>.
The assertions live in the Rust test (tests/api/official_clients.rs).
"""

import json
import queue
import sys

import socketio

WAIT_S = 10


class Client:
    def __init__(self, url, transport):
        self.events = {}
        self.sio = socketio.Client(reconnection=False)
        self.sio.on("*", self._record)
        self.sio.connect(url, transports=[transport], wait_timeout=WAIT_S)

    def _record(self, event, payload):
        self.events.setdefault(event, queue.Queue()).put(payload)

    def next(self, event):
        return self.events.setdefault(event, queue.Queue()).get(timeout=WAIT_S)

    def call(self, event, payload):
        return self.sio.call(event, payload, timeout=WAIT_S)


def main():
    url, item_id, transport = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    a, b = Client(url, transport), Client(url, transport)
    # What the client says it uses; the Rust test checks what reached the server.
    seen = {"firstTransport": a.sio.transport()}

    a.sio.emit("chat:join", {"nick": "Ann"})
    seen["chatHistory"] = a.next("chat:history")

    seen["chatSendAck"] = a.call("chat:send", {"nick": "Ann", "text": "hello from the official client"})
    seen["chatNew"] = [a.next("chat:new"), b.next("chat:new")]

    seen["threadJoinAck"] = b.call("thread:join", {"itemId": item_id, "nick": "Bea"})
    seen["threadHistory"] = b.next("thread:history")

    seen["threadSendAck"] = a.call("thread:send", {"itemId": item_id, "nick": "Ann", "text": "is this mine?"})
    seen["threadNew"] = [a.next("thread:new"), b.next("thread:new")]

    seen["badAck"] = a.call("chat:send", {"nick": "Ann"})
    seen["badError"] = a.next("error")
    seen["unknownItemAck"] = a.call("thread:join", {"itemId": 987654321})
    seen["threadLeaveAck"] = b.call("thread:leave", {"itemId": item_id})

    seen["finalTransport"] = a.sio.transport()
    a.sio.disconnect()
    b.sio.disconnect()
    print(json.dumps(seen))


if __name__ == "__main__":
    main()
