// Service worker: a second visit starts from the cache, and works offline.
//
// Written by build.py from web/serviceWorker.js. One cache per build (its name holds
// a hash of every file), so a rebuild replaces the cache as a whole. On install it
// caches this site's files (the page registers it only once the widget has started
// or failed, so these mostly come from the browser's HTTP cache); the page then
// sends the URLs the worker fetched from the Pyodide site, cached as well.
// Requests for this site and the Pyodide site are answered from the cache first;
// pages fall back to the cached index.html offline, whatever their query string.
"use strict";

const BUILD_ID = @@BUILD_ID@@;
const CACHE = `specstep-${BUILD_ID}`;
const PRECACHE = @@PRECACHE@@;
const PYODIDE_ORIGIN = @@PYODIDE_ORIGIN@@;

function cacheable(url) {
  const u = new URL(url);
  return u.origin === self.location.origin || (PYODIDE_ORIGIN !== null && u.origin === PYODIDE_ORIGIN);
}

self.addEventListener("install", (event) => {
  self.skipWaiting();
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(PRECACHE)));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("specstep-") && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("message", (event) => {
  const message = event.data || {};
  if (message.type !== "cache" || !Array.isArray(message.urls)) return;
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    for (const url of message.urls) {
      if (!cacheable(url) || await cache.match(url, { ignoreVary: true })) continue;
      try {
        const response = await fetch(url);
        if (response.ok) await cache.put(url, response);
      } catch (error) {
        // Offline or refused: it is cached the next time it is fetched.
      }
    }
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || !cacheable(request.url)) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    const navigation = request.mode === "navigate";
    const cached = await cache.match(request, { ignoreSearch: navigation, ignoreVary: true });
    if (cached) return cached;
    try {
      const response = await fetch(request);
      if (response.ok || response.type === "opaque") await cache.put(request, response.clone());
      return response;
    } catch (error) {
      if (navigation) {
        const page = await cache.match("index.html");
        if (page) return page;
      }
      throw error;
    }
  })());
});
