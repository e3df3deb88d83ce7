import { Controller } from '@nestjs/common';
import { BillingRequests, type OfferedPriceView, type Page, type PriceView, type ProductView, type RequestOf } from '@gatehouse/contracts';
import { Handles } from '@gatehouse/bus';
import { PricesService } from './prices.service';
import { ProductsService } from './products.service';

const { ListProducts, GetProduct, CreateProduct, UpdateProduct, DeleteProduct, ListPrices, ListOffer, GetPrice, CreatePrice, UpdatePrice, DeletePrice } =
  BillingRequests;

@Controller()
export class CatalogHandler {
  constructor(
    private readonly products: ProductsService,
    private readonly prices: PricesService,
  ) {}

  @Handles(ListProducts)
  listProducts({ publicationId, limit, cursor }: RequestOf<typeof ListProducts>): Promise<Page<ProductView>> {
    return this.products.list(publicationId, { limit, cursor });
  }

  @Handles(GetProduct)
  getProduct({ publicationId, productId }: RequestOf<typeof GetProduct>): Promise<ProductView> {
    return this.products.get(publicationId, productId);
  }

  @Handles(CreateProduct)
  createProduct({ publicationId, ...product }: RequestOf<typeof CreateProduct>): Promise<ProductView> {
    return this.products.create(publicationId, product);
  }

  @Handles(UpdateProduct)
  updateProduct({ publicationId, productId, changes }: RequestOf<typeof UpdateProduct>): Promise<ProductView> {
    return this.products.update(publicationId, productId, changes);
  }

  @Handles(DeleteProduct)
  deleteProduct({ publicationId, productId }: RequestOf<typeof DeleteProduct>): Promise<{ deleted: true }> {
    return this.products.delete(publicationId, productId);
  }

  @Handles(ListPrices)
  listPrices({ publicationId, productId, limit, cursor }: RequestOf<typeof ListPrices>): Promise<Page<PriceView>> {
    return this.prices.list(publicationId, productId, { limit, cursor });
  }

  @Handles(ListOffer)
  async listOffer({ publicationId }: RequestOf<typeof ListOffer>): Promise<{ prices: OfferedPriceView[] }> {
    return { prices: await this.prices.offer(publicationId) };
  }

  @Handles(GetPrice)
  getPrice({ publicationId, priceId }: RequestOf<typeof GetPrice>): Promise<PriceView> {
    return this.prices.get(publicationId, priceId);
  }

  @Handles(CreatePrice)
  createPrice({ publicationId, productId, price }: RequestOf<typeof CreatePrice>): Promise<PriceView> {
    return this.prices.create(publicationId, productId, price);
  }

  @Handles(UpdatePrice)
  updatePrice({ publicationId, priceId, active }: RequestOf<typeof UpdatePrice>): Promise<PriceView> {
    return this.prices.setActive(publicationId, priceId, active);
  }

  @Handles(DeletePrice)
  deletePrice({ publicationId, priceId }: RequestOf<typeof DeletePrice>): Promise<{ deleted: true }> {
    return this.prices.delete(publicationId, priceId);
  }
}
