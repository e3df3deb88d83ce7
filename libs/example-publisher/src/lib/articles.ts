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
    slug: 'free/market-day',
    title: 'Market day moves to Saturday',
    lede: 'From next month the weekly market will be held on Saturdays.',
    body: ['Stallholders asked for the change so that more families could come.'],
  },
];
