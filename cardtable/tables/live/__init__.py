"""The live connection: websockets, their handshake and routing, and the fan-out of every change to them."""
