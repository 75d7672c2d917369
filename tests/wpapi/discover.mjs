// WPAPI.discover(SITE) as a WordPress client runs it: the site root's Link header names the REST
// root, whose index gives the routes. Then one call through what was discovered: the first page
// of cal/events/v1/events. Prints {"endpoint": ..., "events": N} as JSON; exit status 1 with the
// error when discovery or the call fails. Run by tests/integration/ops/front_page_test.cpp.
import WPAPI from 'wpapi';

const site = process.argv[2];
try {
  const wp = await WPAPI.discover(site);
  const page = await wp.namespace('cal/events/v1').events().perPage(1).get();
  console.log(JSON.stringify({ endpoint: wp._options.endpoint, events: page.events.length }));
} catch (error) {
  console.error(`discover.mjs: ${error && error.message ? error.message : error}`);
  process.exit(1);
}
