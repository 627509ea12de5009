"""The server's doors: REST routes, the WebSocket protocol and the pages, over the hub."""
