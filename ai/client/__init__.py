"""The engine client: the app's side of the engine process (spawn, JSON lines, health, recovery).

``engine_client.EngineClient`` never blocks its caller; ``session.EngineSession`` is its blocking face for
programs without a frame loop. ``api`` types the interface, ``commands`` one object per request,
``process``/``proc_probe`` judge a silent process, ``transport`` carries the lines, ``status`` what the UI
shows. Never imports the engine process's code: the two meet only on the wire.
"""
