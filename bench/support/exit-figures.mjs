// Preload of the cold benchmark (`node --import`): when the process exits, writes its peak RSS and
// its uptime (from the start of node, before any module of the program loaded) as JSON to the file
// named by TRADELOOP_EXIT_FIGURES. Nothing else is touched, so the program runs as a user runs it.
import { writeFileSync } from 'node:fs';

const file = process.env.TRADELOOP_EXIT_FIGURES;
if (file !== undefined && file !== '') {
  process.on('exit', () => {
    writeFileSync(file, JSON.stringify({ maxRssKiB: process.resourceUsage().maxRSS, uptimeMs: process.uptime() * 1000 }));
  });
}
