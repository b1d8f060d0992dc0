// Browser globals that the Emscripten build of OpenUSD in three-usdz-loader expects and Node
// lacks (shared/docs/openusd-wasm.md). Loaded with `node -r ./shim.js`, so that the module's
// worker threads, which inherit the option, get them too.
'use strict';
const fs = require('fs');
const path = require('path');

const external = path.join(__dirname, 'node_modules', 'three-usdz-loader', 'external');

globalThis.location = { pathname: '/', href: 'file:///' };

// The module fetches its .data package with XMLHttpRequest: serve it from external/.
globalThis.XMLHttpRequest = class {
  open(method, url) {
    this.url = url;
  }
  send() {
    const bytes = fs.readFileSync(path.join(external, path.basename(this.url)));
    this.response = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    this.status = 200;
    this.readyState = 4;
    if (this.onload) this.onload();
  }
};
