/** The demo catalogue's departments and sub-categories, with the product nouns and price ranges used to invent products. */

export interface DemoProductLine {
  readonly name: string;
  readonly description: string;
  /** Product nouns, e.g. "Dutch Oven". */
  readonly nouns: readonly string[];
  /** Typical list price range in US dollars. */
  readonly priceRange: readonly [number, number];
  /** Share of the catalogue's products. */
  readonly weight: number;
}

export interface DemoDepartment {
  readonly name: string;
  readonly description: string;
  /** SKU prefix, e.g. "KIT". */
  readonly skuPrefix: string;
  /** Materials that make sense for the department's products, e.g. "Cast Iron" for Kitchen. */
  readonly materials: readonly string[];
  readonly lines: readonly DemoProductLine[];
}

const line = (
  name: string,
  description: string,
  nouns: string[],
  priceRange: [number, number],
  weight = 1,
): DemoProductLine => ({
  name,
  description,
  nouns,
  priceRange,
  weight,
});

export const demoDepartments: readonly DemoDepartment[] = [
  {
    name: "Kitchen",
    description: "Everything for cooking, coffee and the dining table.",
    skuPrefix: "KIT",
    materials: [
      "Cast Iron",
      "Stoneware",
      "Ceramic",
      "Copper",
      "Bamboo",
      "Stainless Steel",
      "Glass",
      "Enamel",
      "Acacia",
    ],
    lines: [
      line(
        "Cookware",
        "Pots, pans and ovenware.",
        ["Skillet", "Saucepan", "Dutch Oven", "Wok", "Stock Pot", "Roasting Pan"],
        [25, 260],
        1.3,
      ),
      line(
        "Coffee & Tea",
        "Brewing equipment and cups.",
        ["French Press", "Pour-Over Kettle", "Espresso Cups", "Tea Infuser", "Coffee Grinder"],
        [12, 180],
        1.2,
      ),
      line(
        "Tableware",
        "Plates, bowls, glasses and cutlery.",
        ["Dinner Plate Set", "Pasta Bowl", "Serving Platter", "Wine Glasses", "Flatware Set"],
        [15, 140],
      ),
      line(
        "Kitchen Tools",
        "Knives, boards and utensils.",
        ["Chef's Knife", "Cutting Board", "Mixing Bowls", "Spatula Set", "Salad Spinner"],
        [8, 120],
      ),
    ],
  },
  {
    name: "Furniture",
    description: "Furniture for living room, bedroom and home office.",
    skuPrefix: "FUR",
    materials: ["Oak", "Walnut", "Teak", "Rattan", "Velvet", "Pine", "Steel", "Bouclé"],
    lines: [
      line(
        "Living Room",
        "Sofas, chairs and tables.",
        ["Sofa", "Armchair", "Coffee Table", "Bookshelf", "Side Table"],
        [90, 1900],
        0.9,
      ),
      line(
        "Bedroom",
        "Beds and bedroom storage.",
        ["Bed Frame", "Nightstand", "Dresser", "Wardrobe"],
        [110, 1500],
        0.7,
      ),
      line(
        "Home Office",
        "Desks and seating for working from home.",
        ["Desk", "Office Chair", "Filing Cabinet", "Monitor Stand"],
        [40, 900],
        0.8,
      ),
    ],
  },
  {
    name: "Lighting",
    description: "Lamps, ceiling lights and connected lighting.",
    skuPrefix: "LGT",
    materials: ["Brass", "Glass", "Rattan", "Linen", "Concrete", "Matte Black", "Opal Glass"],
    lines: [
      line(
        "Lamps",
        "Floor, table and desk lamps.",
        ["Floor Lamp", "Table Lamp", "Desk Lamp", "Reading Light"],
        [25, 320],
      ),
      line(
        "Ceiling Lights",
        "Pendants and chandeliers.",
        ["Pendant Light", "Chandelier", "Flush Mount Light"],
        [45, 650],
        0.6,
      ),
      line(
        "Smart Lighting",
        "App-controlled bulbs, strips and switches.",
        ["Smart Bulb", "LED Strip", "Smart Switch"],
        [12, 110],
        0.8,
      ),
    ],
  },
  {
    name: "Textiles",
    description: "Bedding, bath linen and rugs.",
    skuPrefix: "TEX",
    materials: ["Linen", "Cotton", "Wool", "Jute", "Bamboo", "Velvet", "Organic Cotton", "Waffle"],
    lines: [
      line(
        "Bedding",
        "Duvet covers, sheets and blankets.",
        ["Duvet Cover", "Pillowcase Set", "Weighted Blanket", "Fitted Sheet"],
        [20, 190],
        1.1,
      ),
      line("Bath", "Towels, mats and robes.", ["Bath Towel", "Bath Mat", "Bathrobe"], [10, 95]),
      line("Rugs", "Area rugs, runners and doormats.", ["Area Rug", "Runner Rug", "Doormat"], [18, 600], 0.8),
    ],
  },
  {
    name: "Outdoor",
    description: "Garden, patio and barbecue.",
    skuPrefix: "OUT",
    materials: ["Teak", "Aluminium", "Galvanised Steel", "Acacia", "Recycled Plastic", "Terracotta"],
    lines: [
      line(
        "Garden",
        "Planters and garden tools.",
        ["Planter", "Watering Can", "Garden Hose", "Pruning Shears"],
        [9, 120],
      ),
      line(
        "Patio Furniture",
        "Outdoor seating, shade and hammocks.",
        ["Patio Chair", "Hammock", "Parasol", "Outdoor Table"],
        [45, 850],
        0.7,
      ),
      line(
        "Grills",
        "Charcoal and gas grills and accessories.",
        ["Charcoal Grill", "Gas Grill", "Grill Tool Set"],
        [30, 1200],
        0.5,
      ),
    ],
  },
  {
    name: "Decor",
    description: "Wall art, candles and storage.",
    skuPrefix: "DEC",
    materials: ["Ceramic", "Glass", "Brass", "Seagrass", "Oak", "Marble", "Soy Wax"],
    lines: [
      line("Wall Art", "Prints, canvases and mirrors.", ["Framed Print", "Canvas Art", "Wall Mirror"], [20, 380]),
      line(
        "Candles & Scents",
        "Candles, holders and diffusers.",
        ["Scented Candle", "Candle Holder", "Reed Diffuser"],
        [8, 75],
        1.1,
      ),
      line("Storage", "Baskets, shelves and organisers.", ["Storage Basket", "Shelf Unit", "Shoe Rack"], [12, 240]),
    ],
  },
];
