/** The example site's articles: a free lede, and the rest marked as paid. */
export interface Article {
  slug: string;
  title: string;
  lede: string;
  /** Paragraphs of the paid region. */
  body: string[];
}

export const ARTICLES: Article[] = [
  {
    slug: 'premium/harbour-rebuild',
    title: 'The harbour will be rebuilt by 2030',
    lede: 'The council voted on Tuesday night to rebuild the old harbour wall.',
    body: [
      'The plan, costed at 40 million, raises the wall by two metres and adds a tidal gate at the river mouth.',
      'Fishermen who opposed the first draft won a berth for small boats on the inner quay.',
    ],
  },
  {
    slug: 'premium/orchard-census',
    title: 'Counting the last orchards',
    lede: 'Volunteers walked every lane of the valley this summer to count its apple trees.',
    body: [
      'They found 212 orchards, a third fewer than in 1990, and 41 varieties no nursery sells any more.',
      'Grafts from the rarest trees now grow in the school garden on Mill Lane.',
    ],
  },
  {
    slug: 'news/bridge-reopens',
    title: 'The old bridge reopens to cyclists',
    lede: 'After two years of repairs the stone bridge is open again, to bicycles and walkers only.',
    body: ['Engineers replaced 300 of its stones by hand, each cut from the quarry that built it in 1788.'],
  },
  {
    slug: 'news/tram-timetable',
    title: 'A new tram timetable from May',
    lede: 'Trams will run every eight minutes at peak times from the first of May.',
    body: ['The change adds 40 journeys a day, paid for by the fares rise agreed in the winter.'],
  },
  {
    slug: 'members/letters',
    title: 'Letters to the editor',
    lede: 'This week our readers wrote about the harbour, the bus timetable and the summer fair.',
    body: ['A reader from Mill Lane asks why the last bus now leaves the square at ten past nine.'],
  },
  {
    slug: 'insight/water-prices',
    title: 'Why water will cost more next year',
    lede: 'The water board has asked the regulator for a rise of nine per cent.',
    body: ['Most of the rise pays for the new treatment works, whose cost has doubled since it was approved.'],
  },
  {
    slug: 'free/market-day',
    title: 'Market day moves to Saturday',
    lede: 'From next month the weekly market will be held on Saturdays.',
    body: ['Stallholders asked for the change so that more families could come.'],
  },
];

/**
 * The paywalls the example site is made for: one section per presentation a rule can have, so
 * each offer element shows where the server cut the text (docs/server.md).
 */
export const EXAMPLE_PAYWALLS: Array<{ name: string; type: string; presentation: string; config?: object; match: { include: string[] } }> = [
  { name: 'Example publisher: premium articles', type: 'hard', presentation: 'inline', match: { include: ['/articles/premium/**'] } },
  { name: 'Example publisher: news', type: 'metered', config: { limit: 3, period: 'month' }, presentation: 'modal', match: { include: ['/articles/news/**'] } },
  { name: 'Example publisher: members', type: 'registration', presentation: 'sticky_bar', match: { include: ['/articles/members/**'] } },
  { name: 'Example publisher: insight', type: 'hard', presentation: 'content_lock', match: { include: ['/articles/insight/**'] } },
];
