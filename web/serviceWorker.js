// Service worker: a second visit starts from the cache and works offline, and a
// returning reader gets one build, complete: never files of two builds mixed.
//
// Written by the build from web/serviceWorker.js, which fills in this build's id and
// every file of the site with its sha256 (the same list as build-info.json).
//
// - One cache per build. Installing fills it with the files a visit needs and checks
//   each against its sha256: the browser's HTTP cache is asked first (the visit that
//   registers this worker has just downloaded them, so nothing is fetched twice), and
//   a file that is not this build's (an older build's, under max-age headers) is
//   fetched again past every cache. A file the server no longer has in this build's
//   version means a newer build is already published: the install fails and the old
//   build stays in charge, complete.
// - A new build waits: it takes over only when the page asks it to (the reader
//   pressed "Reload" on the page's notice) or when no page of the site is open.
// - Requests are answered from this build's cache; the page itself whatever its query
//   string. Pyodide's files (a pinned release, never changed) are kept on first use
//   and carried over to the next build's cache. A file of this build kept on first use
//   (a pre-rendered scenario) whose server copy is another build's is refused, not passed on.
"use strict";

const BUILD_ID = @@BUILD_ID@@;
// path (relative to the site's folder) -> sha256 of every file of this build.
const FILES = @@FILES@@;
// The files a visit needs: in the cache before this build may take over.
const PRECACHE = @@PRECACHE@@;
// The folder Pyodide's files come from (absolute, or relative to the site), or null.
const PYODIDE_INDEX = @@PYODIDE_INDEX@@;

const SCOPE = self.registration.scope;
const PREFIX = `specstep:${SCOPE}:`;
const CACHE = PREFIX + BUILD_ID;
const PYODIDE = PYODIDE_INDEX === null ? null : new URL(PYODIDE_INDEX, SCOPE).href;
const PAGE = "index.html";

function isPyodide(url) {
  return PYODIDE !== null && url.startsWith(PYODIDE);
}

// The site's path of a URL ("index.html" for the folder itself), query ignored; or null.
function sitePath(url) {
  const u = new URL(url);
  const bare = u.origin + u.pathname;
  if (!bare.startsWith(SCOPE)) return null;
  let path;
  try { path = decodeURIComponent(bare.slice(SCOPE.length)); } catch (error) { return null; }
  return path === "" ? PAGE : path;
}

function keyOf(path) {
  return new URL(path, SCOPE).href;
}

async function sha256(buffer) {
  const digest = await crypto.subtle.digest("SHA-256", buffer);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

// A response for `path` whose bytes are this build's, or null.
async function ofThisBuild(path, response) {
  if (!response || !response.ok) return null;
  const body = await response.arrayBuffer();
  if (await sha256(body) !== FILES[path]) return null;
  // A fresh response: no "redirected" flag, which a navigation would refuse.
  return new Response(body, { status: 200, statusText: "OK", headers: response.headers });
}

async function tryFetch(url, mode) {
  try {
    return await fetch(url, { cache: mode, credentials: "same-origin" });
  } catch (error) {
    return null;
  }
}

// This build's `path`: from the HTTP cache if it holds this build's bytes (under any of
// `urls`, e.g. the page with the query it was opened with), else from the server past
// every cache. Null when the server has another build's file.
async function fetchOfThisBuild(path, urls) {
  for (const url of urls) {
    const good = await ofThisBuild(path, await tryFetch(url, "force-cache"));
    if (good) return good;
  }
  return ofThisBuild(path, await tryFetch(keyOf(path), "no-store"));
}

async function pageURLs() {
  const clients = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  return clients.map((client) => client.url).filter((url) => sitePath(url) === PAGE);
}

async function precache() {
  const cache = await caches.open(CACHE);
  const pages = await pageURLs();
  const queue = PRECACHE.slice();
  async function next() {
    while (queue.length) {
      const path = queue.shift();
      const key = keyOf(path);
      if (await cache.match(key)) continue;
      const urls = path === PAGE ? [...pages, key] : [key];
      const response = await fetchOfThisBuild(path, urls);
      if (!response) throw new Error(`${path}: the server has another build's file (a newer build was published?)`);
      await cache.put(key, response);
    }
  }
  try {
    await Promise.all([next(), next(), next(), next()]);
  } catch (error) {
    // Never keep half a build: the build in charge stays, and a later visit tries again.
    await caches.delete(CACHE);
    throw error;
  }
}

self.addEventListener("install", (event) => {
  event.waitUntil(precache());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    for (const name of await caches.keys()) {
      // The first service worker's caches were named specstep-<id>: dropped too.
      if (/^specstep-[0-9a-f]{16}$/.test(name)) await caches.delete(name);
      if (!name.startsWith(PREFIX) || name === CACHE) continue;
      // Pyodide's files are the same for every build that names the same release.
      const old = await caches.open(name);
      for (const request of await old.keys()) {
        if (isPyodide(request.url) && !(await cache.match(request))) {
          await cache.put(request, await old.match(request));
        }
      }
      await caches.delete(name);
    }
  })());
});

async function keep(url) {
  const cache = await caches.open(CACHE);
  if (isPyodide(url)) {
    if (await cache.match(url, { ignoreVary: true })) return;
    const response = await tryFetch(url, "force-cache");
    if (response && response.ok) await cache.put(url, response);
    return;
  }
  const path = sitePath(url);
  if (path === null || !(path in FILES)) return;
  const key = keyOf(path);
  if (await cache.match(key)) return;
  const response = await fetchOfThisBuild(path, [url, key]);
  if (response) await cache.put(key, response);
}

self.addEventListener("message", (event) => {
  const message = event.data || {};
  if (message.type === "skip-waiting") {
    event.waitUntil(self.skipWaiting());
  } else if (message.type === "cache" && Array.isArray(message.urls)) {
    // What the page's visit downloaded besides the precached files (Pyodide, a stylesheet).
    event.waitUntil((async () => {
      for (const url of message.urls) {
        try { await keep(String(url)); } catch (error) { /* kept the next time it is used */ }
      }
    })());
  }
});

async function answer(request) {
  const cache = await caches.open(CACHE);
  if (isPyodide(request.url)) {
    const cached = await cache.match(request, { ignoreVary: true });
    if (cached) return cached;
    const response = await fetch(request);
    if (response.ok || response.type === "opaque") await cache.put(request, response.clone());
    return response;
  }
  const path = sitePath(request.url);
  const navigation = request.mode === "navigate";
  const cached = await cache.match(keyOf(path));
  if (cached) return cached;
  if (path in FILES) {
    // A file of this build not precached (a stylesheet only some views use): kept once
    // it is checked to be this build's.
    const response = await fetchOfThisBuild(path, [request.url]);
    if (response) {
      await cache.put(keyOf(path), response.clone());
      return response;
    }
    // The server has another build's copy (a newer build is published): never give it to
    // this build's page (a pre-render of another build's document); the page does without
    // it (a link's placeholder stays) until the reader's Reload.
    if (!navigation) return Response.error();
  }
  try {
    return await fetch(request);
  } catch (error) {
    if (navigation) {
      const page = await cache.match(keyOf(PAGE));
      if (page) return page;
    }
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  if (!isPyodide(request.url) && sitePath(request.url) === null) return;
  // Only what this worker manages: the build's own files, pages, and Pyodide's files.
  if (!isPyodide(request.url) && !(sitePath(request.url) in FILES) && request.mode !== "navigate") return;
  event.respondWith(answer(request));
});
