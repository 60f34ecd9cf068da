"""The web sandbox (``obverse serve``): build a board in the browser, see each seat's view,
export it as a scenario. Needs the ``web`` extra (Starlette and uvicorn)."""
