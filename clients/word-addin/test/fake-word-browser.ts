// The fake Word and a fake Office for the browser test: tests/serve/test_browser.py injects this
// bundle before the pane loads, with the document's paragraphs in window.citecheckFakeSpec.

import { FakeDocument, type FakeSpec } from './fake-word';

const w = window as unknown as Record<string, unknown>;
const doc = new FakeDocument(w.citecheckFakeSpec as FakeSpec);
w.citecheckFake = doc;
w.Word = doc.host();
w.Office = {
  HostType: { Word: 'Word' },
  context: { requirements: { isSetSupported: () => true } },
  onReady(cb?: (info: { host: string; platform: string }) => void) {
    const info = { host: 'Word', platform: 'OfficeOnline' };
    if (cb) setTimeout(() => cb(info), 0);
    return Promise.resolve(info);
  },
};
