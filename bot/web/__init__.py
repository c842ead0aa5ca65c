"""The optional web server in the bot's process (issue 32): a stream overlay of each table
for OBS (``overlay``, its secret links in ``tokens``), ``/healthz`` (``health``) and
``/metrics`` (``metrics``), served by ``server``. Off unless ``TIRADA_WEB_PORT`` is set.
"""
